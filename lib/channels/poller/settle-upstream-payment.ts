import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import type { NoticedChannel } from '../../notifications/close-notice';
import { markOrderPaid } from '../../orders/order-status';
import { recordUpstreamCallback } from '../upstream-callbacks';
import { closePendingOrder } from './close-pending-order';
import type { PollOutcome } from './poll-concurrently';
import { recordPollAnomalyOnce } from './record-poll-anomaly';

/** A payment the upstream's query reports as made, in the channel's own words. */
export interface ReportedPayment {
  /** What the upstream says was paid (undefined when it did not say). */
  amountMinor: bigint | undefined;
  /** Recorded for the operator when the amount is not the order's. */
  amountMismatchDetail: string;
  /** When the upstream says it was paid; a time in the future (clock skew) is taken as now. */
  payTime: Date | undefined;
  tradeNo: string | undefined;
}

/**
 * The poller's handling of a payment the upstream reports: a wrong amount is recorded and not settled ('failed'); a
 * payment made after the window (beyond the channel's clock tolerance) is recorded for the operator and the order
 * closed; otherwise the order is marked paid (`via`) and the query recorded as kind 'query' verdict 'paid', both
 * in one transaction, so a concurrent callback settles it exactly once.
 */
export async function settleUpstreamPayment(
  db: Database,
  settlement: { channel: NoticedChannel; via: string; paidDetail: string; clockToleranceMs: number; order: OrderRow; payment: ReportedPayment; now: Date },
): Promise<PollOutcome> {
  const { via, paidDetail, clockToleranceMs, order, payment, now } = settlement;
  const channel = settlement.channel.name;
  const tradeNo = payment.tradeNo;
  if (payment.amountMinor !== order.payAmountMinor) {
    await recordPollAnomalyOnce(db, { channel, order, verdict: 'amount_mismatch', detail: payment.amountMismatchDetail, now, tradeNo });
    return 'failed';
  }
  const paidAt = payment.payTime && payment.payTime.getTime() <= now.getTime() ? payment.payTime : now;
  if (paidAt.getTime() > order.expiresAt.getTime() + clockToleranceMs) {
    const detail = `paid at ${paidAt.toISOString()} after the window closed; for the operator`;
    await recordPollAnomalyOnce(db, { channel, order, verdict: 'late_payment', detail, now, tradeNo });
    return (await closePendingOrder(db, settlement.channel, order, now)) ? 'closed' : 'pending';
  }
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const marked = await markOrderPaid(tx, { orderId: order.id, via, paidAt, tradeNo: tradeNo || undefined });
    if (!marked.changed) return 'pending';
    await recordUpstreamCallback(tx, { channel, kind: 'query', receivedAt: now, outTradeNo: order.orderNo, tradeNo, orderId: order.id, verdict: 'paid', detail: paidDetail });
    return 'paid';
  });
}
