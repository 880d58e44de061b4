import { bigint, bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import type { TeamRole } from './team-role-names';
import { merchants } from './merchants';

/**
 * An owner's invitation of a person to the merchant's team, in a role: a one-time link whose token only the link
 * holds (the row keeps its SHA-256), usable until it expires, is revoked or is used to sign up.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    email: text('email').notNull(),
    teamRole: text('team_role').$type<TeamRole>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedAccountId: bigint('accepted_account_id', { mode: 'number' }).references(() => accounts.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('team_invitations_merchant').on(table.merchantId, table.createdAt)],
);

export type TeamInvitationRow = typeof teamInvitations.$inferSelect;
