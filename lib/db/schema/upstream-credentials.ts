import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { CREDENTIAL_CHANNEL_NAMES } from '../../channels/channel-names';
import { sqlList } from '../sql-list';
import { merchants } from './merchants';

/**
 * A merchant's upstream application credential for a channel with merchant credentials (CREDENTIAL_CHANNEL_NAMES),
 * submitted in the portal, reviewed by an operator. Which columns a channel fills, and with what, is the channel's
 * own (lib/channels/<name>/credentials.ts: its validation returns them). The integer id is the contract's `credentialId`. Secret parts (private keys, the APIv3 key) are
 * AES-256-GCM envelopes (lib/crypto/secret-box.ts); public parts are stored plain. Usable for orders only when
 * approved, enabled and not deleted (lib/credentials/find-usable-credential.ts).
 */
export const upstreamCredentials = pgTable(
  'upstream_credentials',
  {
    id: serial('id').primaryKey(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    /** One of CREDENTIAL_CHANNEL_NAMES. */
    channel: text('channel').notNull(),
    /** The merchant's application id at the upstream. */
    upstreamAppId: text('upstream_app_id').notNull(),
    /** The merchant number at the upstream, where it has one. */
    mchId: text('mch_id'),
    /** Optional, where the upstream names the receiving account in notifications: the account they must name. */
    sellerId: text('seller_id'),
    /** The serial number (hex) of the merchant's API certificate, where requests name the signing certificate. */
    merchantCertSerial: text('merchant_cert_serial'),
    /** The private key the merchant's requests are signed with: envelope. */
    privateKeyEncrypted: text('private_key_encrypted').notNull(),
    /** The symmetric key the upstream encrypts notification contents with, where it has one: envelope. */
    apiV3KeyEncrypted: text('api_v3_key_encrypted'),
    /** The upstream's public key (PEM) its answers and notifications are verified with, when verified by a key. */
    upstreamPublicKey: text('upstream_public_key'),
    /** The id the upstream names that public key by, where it names it. */
    upstreamPublicKeyId: text('upstream_public_key_id'),
    /** The upstream's certificate (PEM), when its signatures are verified by certificate. */
    platformCertificate: text('platform_certificate'),
    /** 'pending', 'approved' or 'rejected'. */
    reviewStatus: text('review_status').notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    enabled: boolean('enabled').notNull().default(true),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('upstream_credentials_merchant_channel_idx').on(table.merchantId, table.channel, table.id),
    // The channels with merchant credentials (lib/channels/index.ts credentialChannels). A CHECK constraint is fixed in
    // a migration: a new name means a generated one; lib/channels/registry.test.ts fails when the lists differ.
    check('upstream_credentials_channel_check', sql`${table.channel} in (${sqlList(CREDENTIAL_CHANNEL_NAMES)})`),
    check('upstream_credentials_review_status_check', sql`${table.reviewStatus} in ('pending', 'approved', 'rejected')`),
  ],
);

export type UpstreamCredentialRow = typeof upstreamCredentials.$inferSelect;
