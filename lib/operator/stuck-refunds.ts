import { and, asc, eq, lte, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, orders, refunds } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { ATTENTION_LIST_LIMIT, linkedOrderColumns, withLinkedOrder } from '../channels/attention-items';

/** A refund still processing this long after it was asked for is the operator's to look at (the poller keeps asking). */
export const STUCK_REFUND_AFTER_MS = 30 * 60_000;

/**
 * Refunds stuck in processing, and every abnormal refund at once (WeChat Pay's ABNORMAL: the money left the
 * merchant's balance, the payer has not received it, the merchant must apply a remedy), oldest first, with their order.
 */
export async function listStuckRefunds(db: Database, now: Date) {
  const rows = await db
    .select({
      refundNo: refunds.refundNo,
      merchantRefundNo: refunds.merchantRefundNo,
      state: refunds.state,
      amountMinor: refunds.amountMinor,
      requestCount: refunds.requestCount,
      lastNote: refunds.failureReason,
      createdAt: refunds.createdAt,
      ...linkedOrderColumns,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(or(eq(refunds.state, 'abnormal'), and(eq(refunds.state, 'processing'), lte(refunds.createdAt, new Date(now.getTime() - STUCK_REFUND_AFTER_MS)))))
    .orderBy(asc(refunds.createdAt))
    .limit(ATTENTION_LIST_LIMIT);
  return rows.map(({ amountMinor, ...row }) => {
    const { order, ...own } = withLinkedOrder(row);
    return { ...own, amount: formatMinorUnits(amountMinor), order: order! }; // an inner join: a refund always has its order
  });
}

/** A merchant's latest refunds, for the operator's merchant view. */
export async function recentMerchantRefunds(db: Database, merchantId: number, limit = 20) {
  const rows = await db
    .select({ refund: refunds, orderNo: orders.orderNo, channel: orders.channel, currency: orders.currency })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.merchantId, merchantId))
    .orderBy(asc(refunds.id))
    .limit(limit);
  return rows.map(({ refund, ...order }) => ({
    ...order,
    refundNo: refund.refundNo,
    merchantRefundNo: refund.merchantRefundNo,
    amount: formatMinorUnits(refund.amountMinor),
    state: refund.state,
    failureReason: refund.failureReason,
    createdBy: refund.createdBy,
    createdAt: refund.createdAt,
  }));
}
