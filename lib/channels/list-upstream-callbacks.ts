import { and, desc, eq, notInArray, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, upstreamCallbacks } from '../db/schema';

/** Verdicts that need no one's attention: the callback was genuine and handled. */
export const UNEVENTFUL_VERDICTS = ['paid', 'refund', 'duplicate', 'ignored'];

export interface CallbackFilter {
  channel?: string;
  /** Only those that need the operator: forgeries, mismatches, unknown orders, late payments. */
  attentionOnly?: boolean;
  orderNo?: string;
  limit?: number;
}

/** Upstream callbacks (and poller findings) as recorded, newest first. */
export async function listUpstreamCallbacks(db: Database, filter: CallbackFilter = {}) {
  const conditions: SQL[] = [];
  if (filter.channel) conditions.push(eq(upstreamCallbacks.channel, filter.channel));
  if (filter.attentionOnly) conditions.push(notInArray(upstreamCallbacks.verdict, UNEVENTFUL_VERDICTS));
  if (filter.orderNo) conditions.push(eq(upstreamCallbacks.outTradeNo, filter.orderNo));
  return db
    .select({
      id: upstreamCallbacks.id,
      channel: upstreamCallbacks.channel,
      kind: upstreamCallbacks.kind,
      receivedAt: upstreamCallbacks.receivedAt,
      outTradeNo: upstreamCallbacks.outTradeNo,
      tradeNo: upstreamCallbacks.tradeNo,
      orderStatus: orders.status,
      verdict: upstreamCallbacks.verdict,
      detail: upstreamCallbacks.detail,
      answer: upstreamCallbacks.answer,
    })
    .from(upstreamCallbacks)
    .leftJoin(orders, eq(orders.id, upstreamCallbacks.orderId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(upstreamCallbacks.id))
    .limit(Math.min(filter.limit ?? 100, 500));
}
