import { bigint, bigserial, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * The built-in WeChat Pay v3 simulator's key material (sandbox/wechat/), generated on first use and kept here so
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

/** The simulator's own order book (one row per out_trade_no of a mchid). */
export const sandboxWechatOrders = pgTable(
  'sandbox_wechat_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The id in code_url / the payer page address: unguessable. */
    payId: text('pay_id').notNull().unique(),
    transactionId: text('transaction_id').notNull().unique(),
    prepayId: text('prepay_id').notNull(),
    mchId: text('mch_id').notNull(),
    appId: text('app_id').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    /** NATIVE | MWEB */
    tradeType: text('trade_type').notNull(),
    description: text('description').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    notifyUrl: text('notify_url').notNull(),
    attach: text('attach'),
    payerClientIp: text('payer_client_ip'),
    /** MWEB: every h5_url handed out, by its `package`, with when (each lives a few minutes). */
    h5Urls: jsonb('h5_urls').$type<Record<string, string>>().notNull().default({}),
    timeExpire: timestamp('time_expire', { withTimezone: true }).notNull(),
    /** NOTPAY | SUCCESS | CLOSED */
    tradeState: text('trade_state').notNull().default('NOTPAY'),
    successTime: timestamp('success_time', { withTimezone: true }),
    notifyCount: integer('notify_count').notNull().default(0),
    lastNotifyAt: timestamp('last_notify_at', { withTimezone: true }),
    lastNotifyResult: text('last_notify_result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('sandbox_wechat_orders_out_trade_no_key').on(table.mchId, table.outTradeNo)],
);

export type SandboxWechatOrderRow = typeof sandboxWechatOrders.$inferSelect;
