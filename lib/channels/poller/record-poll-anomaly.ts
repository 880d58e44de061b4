import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { upstreamCallbacks, type OrderRow } from '../../db/schema';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';

/** Records an anomaly the poller saw once per order and verdict, so the operator sees it without a row every run. */
export async function recordPollAnomalyOnce(
  db: Database,
  anomaly: { channel: string; order: OrderRow; verdict: CallbackVerdict; detail: string; now: Date; tradeNo?: string },
): Promise<void> {
  const { channel, order, verdict, detail, now, tradeNo } = anomaly;
  const [seen] = await db
    .select({ id: upstreamCallbacks.id })
    .from(upstreamCallbacks)
    .where(and(eq(upstreamCallbacks.orderId, order.id), eq(upstreamCallbacks.kind, 'query'), eq(upstreamCallbacks.verdict, verdict)))
    .limit(1);
  if (!seen) await recordUpstreamCallback(db, { channel, kind: 'query', receivedAt: now, outTradeNo: order.orderNo, tradeNo, orderId: order.id, verdict, detail });
}
