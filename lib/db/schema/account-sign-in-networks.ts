import { bigint, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * The client networks (an IPv4 address, an IPv6 /64) an account has signed in from with the right password: while
 * the account's daily cap of failed sign-ins is reached, these networks still get in (lib/accounts/known-networks.ts).
 */
export const accountSignInNetworks = pgTable(
  'account_sign_in_networks',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    firstSignedInAt: timestamp('first_signed_in_at', { withTimezone: true }).notNull(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.network] }), index('account_sign_in_networks_last').on(table.accountId, table.lastSignedInAt)],
);
