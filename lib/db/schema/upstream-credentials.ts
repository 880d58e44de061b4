import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { CREDENTIAL_CHANNEL_NAMES } from '../../channels/channel-names';
import { sqlList } from '../sql-list';
import { merchants } from './merchants';

/**
 * A merchant's upstream application credential for ALIPAY or WECHAT (API v3), submitted in the portal, reviewed by
 * an operator. The integer id is the contract's `credentialId`. Secret parts (private keys, the APIv3 key) are
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
    /** 'ALIPAY' or 'WECHAT'. */
    channel: text('channel').notNull(),
    /** Alipay app id, or the WeChat appid. */
    upstreamAppId: text('upstream_app_id').notNull(),
    /** WECHAT only. */
    mchId: text('mch_id'),
    /** ALIPAY only, optional: the merchant's Alipay user id (2088…), which genuine notifications name as seller_id. */
    sellerId: text('seller_id'),
    /** WECHAT only: the merchant API certificate's serial number (hex). */
    merchantCertSerial: text('merchant_cert_serial'),
    /** Alipay app private key, or the WeChat merchant API private key: envelope. */
    privateKeyEncrypted: text('private_key_encrypted').notNull(),
    /** WECHAT only: the APIv3 key, envelope. */
    apiV3KeyEncrypted: text('api_v3_key_encrypted'),
    /** ALIPAY: the Alipay public key (PEM). WECHAT: the WeChat Pay public key (PEM) when that mode is used. */
    upstreamPublicKey: text('upstream_public_key'),
    /** WECHAT: `PUB_KEY_ID_…` with the WeChat Pay public key. */
    upstreamPublicKeyId: text('upstream_public_key_id'),
    /** WECHAT: the platform certificate (PEM) when that mode is used. */
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
