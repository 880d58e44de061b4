import { bigint, bigserial, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * State of the built-in Alipay simulator (sandbox/alipay/), in the service's database so that every process (the
 * service, `npm run sandbox`, tests) shares the same trades; its keys are lib/channels/alipay/schema.ts's. It stays
 * empty where the sandbox is off; no production code path reads it.
 */
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
    /** What the next refund of the trade meets (a sandbox control): processing, fail, timeout_once; null: succeeds. */
    refundPlan: text('refund_plan'),
    /** How alipay.trade.close answers while the trade is not waiting (a sandbox control, close-plan.ts); null: the default. */
    closePlan: text('close_plan'),
    notifyCount: integer('notify_count').notNull().default(0),
    lastNotifyAt: timestamp('last_notify_at', { withTimezone: true }),
    lastNotifyResult: text('last_notify_result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('sandbox_alipay_trades_out_trade_no_key').on(table.appId, table.outTradeNo)],
);

export type SandboxAlipayTradeRow = typeof sandboxAlipayTrades.$inferSelect;

/** The simulator's refunds: one per (trade, out_request_no), whatever the number of requests that carry it. */
export const sandboxAlipayRefunds = pgTable(
  'sandbox_alipay_refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tradeNo: text('trade_no').notNull(),
    outRequestNo: text('out_request_no').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    reason: text('reason'),
    /** REFUND_PROCESSING | REFUND_SUCCESS */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [unique('sandbox_alipay_refunds_request_key').on(table.tradeNo, table.outRequestNo)],
);

export type SandboxAlipayRefundRow = typeof sandboxAlipayRefunds.$inferSelect;
/**
 * Refunds of the simulator's trades made by hand in the merchant's Alipay console (refundInConsole in bill.ts),
 * outside the service: they appear in the day's trade bill as 退款 rows.
 */
export const sandboxAlipayConsoleRefunds = pgTable('sandbox_alipay_console_refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tradeNo: text('trade_no').notNull(),
  /** out_request_no: the refund's own number. */
  outRequestNo: text('out_request_no').notNull().unique(),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  refundedAt: timestamp('refunded_at', { withTimezone: true }).notNull(),
});
