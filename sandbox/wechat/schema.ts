import { bigint, bigserial, date, integer, jsonb, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

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
    /** NOTPAY | SUCCESS | CLOSED | REVOKED (revoked after payment) */
    tradeState: text('trade_state').notNull().default('NOTPAY'),
    successTime: timestamp('success_time', { withTimezone: true }),
    /** What the next refund of the order meets (a sandbox control): processing, fail, timeout_once; null: succeeds. */
    refundPlan: text('refund_plan'),
    notifyCount: integer('notify_count').notNull().default(0),
    lastNotifyAt: timestamp('last_notify_at', { withTimezone: true }),
    lastNotifyResult: text('last_notify_result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('sandbox_wechat_orders_out_trade_no_key').on(table.mchId, table.outTradeNo)],
);

export type SandboxWechatOrderRow = typeof sandboxWechatOrders.$inferSelect;

/** The simulator's refunds: one per (mchid, out_refund_no). */
export const sandboxWechatRefunds = pgTable(
  'sandbox_wechat_refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    refundId: text('refund_id').notNull().unique('sandbox_wechat_refunds_refund_id_key'),
    mchId: text('mch_id').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    transactionId: text('transaction_id').notNull(),
    outRefundNo: text('out_refund_no').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    totalMinor: bigint('total_minor', { mode: 'bigint' }).notNull(),
    reason: text('reason'),
    notifyUrl: text('notify_url'),
    /** PROCESSING | SUCCESS | ABNORMAL | CLOSED */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    successTime: timestamp('success_time', { withTimezone: true }),
  },
  (table) => [unique('sandbox_wechat_refunds_out_refund_no_key').on(table.mchId, table.outRefundNo)],
);

export type SandboxWechatRefundRow = typeof sandboxWechatRefunds.$inferSelect;
/** Refunds of the simulator's orders made by hand in the WeChat Pay merchant platform, outside the service. */
export const sandboxWechatConsoleRefunds = pgTable('sandbox_wechat_console_refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  transactionId: text('transaction_id').notNull(),
  outRefundNo: text('out_refund_no').notNull().unique(),
  refundId: text('refund_id').notNull().unique(),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  refundedAt: timestamp('refunded_at', { withTimezone: true }).notNull(),
});

/**
 * What the simulated WeChat Pay does with one day's trade bill of a merchant (a sandbox control): 'creating' answers
 * STATEMENT_CREATING (the bill is still being made), 'legacy' serves the older layout (总金额 / 企业红包金额, without
 * 订单金额 / 申请退款金额) that WeChat Pay still gives some merchants.
 */
export const sandboxWechatBillPlans = pgTable(
  'sandbox_wechat_bill_plans',
  {
    mchId: text('mch_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    plan: text('plan').$type<'creating' | 'legacy'>().notNull(),
  },
  (table) => [primaryKey({ name: 'sandbox_wechat_bill_plans_pkey', columns: [table.mchId, table.day] })],
);
