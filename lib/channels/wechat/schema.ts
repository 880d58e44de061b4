import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { upstreamCredentials } from '../../db/schema/upstream-credentials';

/**
 * WeChat Pay platform certificates downloaded for a WECHAT credential in certificate mode (`GET /v3/certificates`,
 * decrypted with its APIv3 key): WeChat rotates them, announcing the new one about 10 days before the old expires,
 * and signs with either during the overlap. Kept in the database so that every process (the service receiving
 * notifications, the worker polling) verifies with the same set. Certificates are public: stored plain.
 */
export const wechatPlatformCertificates = pgTable(
  'wechat_platform_certificates',
  {
    credentialId: integer('credential_id')
      .notNull()
      .references(() => upstreamCredentials.id),
    /** Upper-case hex without leading zeros (how Wechatpay-Serial is compared). */
    serial: text('serial').notNull(),
    certificatePem: text('certificate_pem').notNull(),
    effectiveTime: timestamp('effective_time', { withTimezone: true }).notNull(),
    expireTime: timestamp('expire_time', { withTimezone: true }).notNull(),
    /** The last download that listed it. */
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.credentialId, table.serial] })],
);

export type WechatPlatformCertificateRow = typeof wechatPlatformCertificates.$inferSelect;

/**
 * The built-in WeChat Pay v3 simulator's key material (sandbox/wechat/), kept with the channel because `credential add
 * --sandbox` (production code, which never imports sandbox/) reads it, generated on first use and kept here so
 * that every process (the service, `npm run sandbox`, tests) signs and verifies with the same keys. Sandbox keys
 * protect no money, so they are stored plain; the table stays empty where the sandbox is off.
 */
export const sandboxWechatKeys = pgTable('sandbox_wechat_keys', {
  /** 'default': one simulated merchant account. */
  id: text('id').primaryKey(),
  mchId: text('mch_id').notNull(),
  appId: text('app_id').notNull(),
  /** The simulated merchant's API key pair and its certificate serial (the service signs requests with it). */
  merchantPrivateKey: text('merchant_private_key').notNull(),
  merchantPublicKey: text('merchant_public_key').notNull(),
  merchantCertSerial: text('merchant_cert_serial').notNull(),
  /** The simulated WeChat Pay key pair (responses and callbacks are signed with it), named `PUB_KEY_ID_…`. */
  platformPrivateKey: text('platform_private_key').notNull(),
  platformPublicKey: text('platform_public_key').notNull(),
  platformPublicKeyId: text('platform_public_key_id').notNull(),
  apiV3Key: text('api_v3_key').notNull(),
  /**
   * How the simulated WeChat Pay signs for this merchant: 'public_key' (the WeChat Pay public key above, the mode of
   * new merchants), 'certificate' (platform certificates) or 'both' (a merchant migrating between them).
   */
  mode: text('mode').notNull().default('public_key'),
  /** Platform certificates with their keys, oldest first; the newest signs. Made by `sandbox wechat rotate-certificate`. */
  platformCertificates: jsonb('platform_certificates')
    .$type<{ serial: string; certificatePem: string; privateKeyPem: string; effectiveTime: string; expireTime: string }[]>()
    .notNull()
    .default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SandboxWechatKeysRow = typeof sandboxWechatKeys.$inferSelect;
