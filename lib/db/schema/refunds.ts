import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { sqlList } from '../sql-list';
import { merchants } from './merchants';
import { orders } from './orders';

/**
 * A refund's lifecycle (lib/refunds): processing until the upstream's final word. `abnormal` (WeChat Pay's ABNORMAL:
 * the payer's card or account could not take the money, which has left the merchant's balance) is not final: its
 * amount stays reserved, the merchant applies WeChat's remedy, and a later SUCCESS or CLOSED settles it.
 */
export const REFUND_STATES = ['processing', 'succeeded', 'failed', 'closed', 'abnormal'] as const;
/** The states an upstream is still asked about (the poller): their amount stays reserved. */
export const OPEN_REFUND_STATES = ['processing', 'abnormal'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/**
 * One refund of a paid order. merchantRefundNo is the merchant's idempotency key; refundNo is ours, sent upstream as
 * Alipay's out_request_no / WeChat's out_refund_no, and kept for every retry of the same refund. The order row holds
 * the sums (orders.refund_reserved_minor / refunded_minor) under a CHECK constraint.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    refundNo: text('refund_no').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    merchantRefundNo: text('merchant_refund_no').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    reason: text('reason'),
    /** Where the refund's final state is notified; null: not notified. */
    notifyUrl: text('notify_url'),
    state: text('state').$type<RefundState>().notNull().default('processing'),
    upstreamRefundId: text('upstream_refund_id'),
    failureReason: text('failure_reason'),
    /** The upstream took the request (Alipay's 10000, WeChat's 200): from then on it is asked about, not sent again. */
    upstreamAccepted: boolean('upstream_accepted').notNull().default(false),
    /** When the upstream accepted it (WeChat Pay's create_time, else when its acceptance was first heard of). */
    upstreamAcceptedAt: timestamp('upstream_accepted_at', { withTimezone: true }),
    /** Requests sent upstream, every one with the same refundNo and amount. */
    requestCount: integer('request_count').notNull().default(0),
    /** When the refund poller next asks about (or sends again) a processing refund. */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    /** 'api' (open API) or the portal or console user who asked for it. */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    unique('refunds_refund_no_key').on(table.refundNo),
    unique('refunds_merchant_refund_no_key').on(table.merchantId, table.merchantRefundNo),
    check('refunds_state_check', sql`${table.state} IN (${sqlList(REFUND_STATES)})`),
    check('refunds_amount_check', sql`${table.amountMinor} > 0`),
    index('refunds_order_idx').on(table.orderId, table.id),
    index('refunds_open_due_idx')
      .on(table.nextCheckAt)
      .where(sql`${table.state} IN ('processing', 'abnormal')`),
  ],
);

export type RefundRow = typeof refunds.$inferSelect;
