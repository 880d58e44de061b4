import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from './orders';

/**
 * Every callback an upstream sent us, as received, with what we made of it; also payments that the poller found
 * (kind 'query'), so the operator sees how each order was paid and every forgery, mismatch or late payment.
 * verdict: paid | duplicate | ignored | late_payment | bad_signature | wrong_merchant | unknown_order |
 * amount_mismatch | trade_no_mismatch | malformed. `answer` is what the upstream was answered (callbacks).
 */
export const upstreamCallbacks = pgTable(
  'upstream_callbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    /** 'callback' (the upstream called us) or 'query' (the poller asked the upstream). */
    kind: text('kind').notNull().default('callback'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The body as received (callbacks), at most 8 KiB. */
    rawBody: text('raw_body'),
    outTradeNo: text('out_trade_no'),
    tradeNo: text('trade_no'),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    verdict: text('verdict').notNull(),
    detail: text('detail'),
    answer: text('answer'),
  },
  (table) => [
    index('upstream_callbacks_order_idx').on(table.orderId),
    index('upstream_callbacks_rejected_idx')
      .on(table.receivedAt)
      .where(sql`${table.verdict} NOT IN ('paid', 'duplicate', 'ignored')`),
  ],
);

export type UpstreamCallbackRow = typeof upstreamCallbacks.$inferSelect;
