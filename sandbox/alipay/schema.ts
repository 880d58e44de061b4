import { bigint, bigserial, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * State of the built-in Alipay simulator (sandbox/alipay/). It lives in the service's database so that every process
 * (the service, `npm run sandbox`, `npm run admin -- credential add --sandbox`, tests) shares the same keys and trades.
 * It stays empty where the sandbox is off; no production code path reads it.
 */

/**
 * The simulator's key pairs, one row ('default'): the "Alipay" pair (signs notifications and responses; merchants
 * verify with its public key) and the sandbox merchant application (app id and pair: the simulator verifies the
 * requests with the app public key). Plain text: these are throwaway keys of a simulator, never real ones.
 */
export const sandboxAlipayKeys = pgTable('sandbox_alipay_keys', {
  name: text('name').primaryKey(),
  appId: text('app_id').notNull(),
  appPrivateKey: text('app_private_key').notNull(),
  appPublicKey: text('app_public_key').notNull(),
  alipayPrivateKey: text('alipay_private_key').notNull(),
  alipayPublicKey: text('alipay_public_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SandboxAlipayKeysRow = typeof sandboxAlipayKeys.$inferSelect;

/** The simulator's trades, created when the payer's browser arrives at gateway.do with a signed page/wap pay request. */
export const sandboxAlipayTrades = pgTable(
  'sandbox_alipay_trades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tradeNo: text('trade_no').notNull().unique(),
    appId: text('app_id').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    /** alipay.trade.page.pay | alipay.trade.wap.pay */
    method: text('method').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    subject: text('subject').notNull(),
    body: text('body'),
    passbackParams: text('passback_params'),
    notifyUrl: text('notify_url'),
    returnUrl: text('return_url'),
    timeExpire: timestamp('time_expire', { withTimezone: true }).notNull(),
    /** WAIT_BUYER_PAY | TRADE_SUCCESS | TRADE_CLOSED */
    status: text('status').notNull().default('WAIT_BUYER_PAY'),
    buyerLogonId: text('buyer_logon_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    notifyCount: integer('notify_count').notNull().default(0),
    lastNotifyAt: timestamp('last_notify_at', { withTimezone: true }),
    lastNotifyResult: text('last_notify_result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('sandbox_alipay_trades_out_trade_no_key').on(table.appId, table.outTradeNo)],
);

export type SandboxAlipayTradeRow = typeof sandboxAlipayTrades.$inferSelect;
