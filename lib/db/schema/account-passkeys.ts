import { bigint, bigserial, boolean, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { accounts } from './accounts';

/**
 * An account's passkeys (WebAuthn credentials): each a second factor after the password, and a sign-in on its own
 * (the authenticator checks its person: user verification). The public key is the COSE key the authenticator made
 * (base64url; nothing secret); the signature counter, where the authenticator keeps one, must grow with every use.
 */
export const accountPasskeys = pgTable(
  'account_passkeys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: text('transports').notNull().default(''),
    name: text('name').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('account_passkeys_account').on(table.accountId)],
);

/** For a select on accounts: whether the account holds a passkey (a second factor as good as the app). */
export const accountHasPasskey = sql<boolean>`EXISTS (SELECT 1 FROM ${accountPasskeys} WHERE ${accountPasskeys.accountId} = ${accounts.id})`;

export const WEBAUTHN_PURPOSES = ['register', 'sign_in', 'second_factor', 'step_up'] as const;
export type WebauthnPurpose = (typeof WEBAUTHN_PURPOSES)[number];

/**
 * The challenges handed to browsers for a passkey ceremony, each answered once (taken by the answer) within a few
 * minutes: an assertion captured on its way cannot be played again. A sign-in's challenge belongs to no account yet.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: text('id').primaryKey(),
    accountId: bigint('account_id', { mode: 'number' }).references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<WebauthnPurpose>().notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('webauthn_challenges_expiry').on(table.expiresAt),
    check('webauthn_challenges_purpose_check', sql`${table.purpose} IN ('register', 'sign_in', 'second_factor', 'step_up')`),
  ],
);
