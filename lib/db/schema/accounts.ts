import { bigint, bigserial, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { merchants } from './merchants';
import type { TeamRole } from './team-role-names';

/** People who sign in to the back office: merchant staff (bound to a merchant) and operators. */
export const accounts = pgTable('accounts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role').notNull(),
  /** A merchant account's role in its merchant's team (lib/accounts/team-roles.ts); an operator has none. */
  teamRole: text('team_role').$type<TeamRole>(),
  merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
  /** Raised on a password change: portal sessions (JWTs) carrying an older value are no longer accepted. */
  sessionVersion: integer('session_version').notNull().default(0),
  /** An operator's reset of the account's lost second factor, told to the owner until a new one is set up. */
  secondFactorResetAt: timestamp('second_factor_reset_at', { withTimezone: true }),
  secondFactorResetReason: text('second_factor_reset_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AccountRow = typeof accounts.$inferSelect;
