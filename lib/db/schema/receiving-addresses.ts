import { bigserial, boolean, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

export const receivingAddresses = pgTable(
  'receiving_addresses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('receiving_addresses_chain_address_key').on(table.chain, table.address)],
);

export type ReceivingAddressRow = typeof receivingAddresses.$inferSelect;
