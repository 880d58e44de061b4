import { bigint, bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * An account's authenticator app (TOTP, RFC 6238): its secret encrypted at rest, confirmed once a code from the app
 * was accepted; the last time step a code was accepted for, so that no code is accepted twice.
 */
export const accountTotpFactors = pgTable('account_totp_factors', {
  accountId: bigint('account_id', { mode: 'number' })
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
});

/** Ten codes shown once when the authenticator is confirmed, each a way in once if the app is lost; kept as SHA-256. */
export const accountRecoveryCodes = pgTable(
  'account_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('account_recovery_codes_account').on(table.accountId)],
);
