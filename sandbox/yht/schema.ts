import { bigint, bigserial, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * State of the built-in YHT simulator (sandbox/yht/), the upstream's own order book. It lives in the service's
 * database so that every process (the service, `npm run sandbox`, tests) sees the same orders; it stays empty
 * where the sandbox is off. No production code reads it.
 */
export const sandboxYhtOrders = pgTable(
  'sandbox_yht_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tradeNo: text('trade_no').notNull().unique(),
    mchNo: text('mch_no').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    payMethod: text('pay_method').notNull(),
    subject: text('subject').notNull(),
    notifyUrl: text('notify_url').notNull(),
    returnUrl: text('return_url'),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    /** WAITING | SUCCESS | CLOSED */
    status: text('status').notNull().default('WAITING'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    notifyCount: integer('notify_count').notNull().default(0),
    lastNotifyAt: timestamp('last_notify_at', { withTimezone: true }),
    lastNotifyResult: text('last_notify_result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('sandbox_yht_orders_out_trade_no_key').on(table.mchNo, table.outTradeNo)],
);

export type SandboxYhtOrderRow = typeof sandboxYhtOrders.$inferSelect;
