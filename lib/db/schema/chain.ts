import { bigint, bigserial, index, integer, numeric, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { orders } from './orders';
import { receivingAddresses } from './receiving-addresses';

/** How far the chain watcher has read (block timestamp, ms), persisted so a restart resumes without gaps. */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  blockTimestampMs: bigint('block_timestamp_ms', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every confirmed USDT transfer to a receiving address, stored once whether it paid an order or not.
 * verdict: matched | no_order | wrong_amount | late
 */
export const chainTransfers = pgTable(
  'chain_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: text('transaction_id').notNull(),
    eventIndex: integer('event_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTime: timestamp('block_time', { withTimezone: true }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    receivingAddressId: bigint('receiving_address_id', { mode: 'number' })
      .notNull()
      .references(() => receivingAddresses.id),
    /** TRC20 raw value (6 decimals), exact. */
    valueRaw: numeric('value_raw', { precision: 78, scale: 0 }).notNull(),
    verdict: text('verdict').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('chain_transfers_event_key').on(table.transactionId, table.eventIndex),
    index('chain_transfers_verdict_idx').on(table.verdict),
  ],
);

/** The sandbox TRON ledger (development and tests only): simulated USDT transfers with blocks. */
export const sandboxTronTransfers = pgTable(
  'sandbox_tron_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: text('transaction_id').notNull().unique(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTimestampMs: bigint('block_timestamp_ms', { mode: 'number' }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    valueRaw: numeric('value_raw', { precision: 78, scale: 0 }).notNull(),
  },
  (table) => [index('sandbox_tron_transfers_time_idx').on(table.blockTimestampMs, table.id)],
);
