import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
