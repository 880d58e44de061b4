import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * A signed-in browser: one row per good sign-in, whose id the session token carries. A token is honoured only while
 * its row is live (not ended, seen within the session's idle limit, of the account's current session version), so
 * the owner can see each session and end any of them; the device and the client's network are kept as the owner
 * reads them (a user agent, an IPv4 /24 or an IPv6 /64), never the full address.
 */
export const accountSessions = pgTable(
  'account_sessions',
  {
    id: text('id').primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sessionVersion: integer('session_version').notNull(),
    userAgent: text('user_agent').notNull(),
    network: text('network').notNull(),
    signedInAt: timestamp('signed_in_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The last good answer to the second factor in this session (sign-in or a step-up: lib/accounts/step-up.ts). */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
  },
  (table) => [index('account_sessions_account_seen').on(table.accountId, table.lastSeenAt)],
);
