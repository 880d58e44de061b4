import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { actionRefused } from '../errors/domain-error';
import { orders, refunds, upstreamCallbacks, type OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { recordAudit } from '../audit/record-audit';
import type { ChannelRefunds } from './channel-refunds';
import { sendRefund } from './send-refund';

/**
 * A payment the upstream took for an order already closed here (a signed pay URL still open in the payer's browser:
 * Alipay creates the trade only when the cashier opens). It is never credited: the receivers record it as a
 * `late_payment` callback, which the operator's attention list shows; the merchant sees it on the order page and
 * refunds it in one action.
 */
export async function latePaymentOf(db: Database, order: Pick<OrderRow, 'id' | 'status'>) {
  if (order.status !== 'closed') return undefined;
  const [late] = await db
    .select({ tradeNo: upstreamCallbacks.tradeNo, receivedAt: upstreamCallbacks.receivedAt, detail: upstreamCallbacks.detail })
    .from(upstreamCallbacks)
    .where(and(eq(upstreamCallbacks.orderId, order.id), eq(upstreamCallbacks.verdict, 'late_payment')))
    .orderBy(asc(upstreamCallbacks.id))
    .limit(1);
  return late;
}

/** The refund of a late payment is the order's only one, of its whole amount, under this number. */
export const latePaymentRefundNo = (orderNo: string) => `LATE-${orderNo}`.slice(0, 64);

/**
 * Refunds a late payment in full through the order's channel, once: under the order's row lock the whole amount is
 * reserved (the order's CHECK keeps it within what was paid) and one refund written; then sent like any refund, its
 * outcome unknown until the upstream's final word. Audited.
 */
export async function refundLatePayment(db: Database, input: { merchantId: number; orderNo: string; channelOf: (order: OrderRow) => ChannelRefunds; actor: string; now: Date }) {
  const refund = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [order] = await tx.select().from(orders).where(and(eq(orders.merchantId, input.merchantId), eq(orders.orderNo, input.orderNo))).for('update');
    if (!order) throw actionRefused(`order ${input.orderNo} not found`);
    const late = await latePaymentOf(tx, order);
    if (!late) throw actionRefused(`order ${order.orderNo} has no payment that arrived after it was closed`);
    const channel = input.channelOf(order);
    if (!channel.offered) throw actionRefused(channel.refusal);
    const merchantRefundNo = latePaymentRefundNo(order.orderNo);
    const [existing] = await tx.select().from(refunds).where(and(eq(refunds.orderId, order.id), eq(refunds.merchantRefundNo, merchantRefundNo)));
    if (existing) return { row: existing, created: false };
    await tx.update(orders).set({ refundReservedMinor: sql`${orders.refundReservedMinor} + ${order.payAmountMinor}` }).where(eq(orders.id, order.id));
    const [created] = await tx
      .insert(refunds)
      .values({
        refundNo: merchantRefundNo,
        merchantId: input.merchantId,
        orderId: order.id,
        merchantRefundNo,
        amountMinor: order.payAmountMinor,
        reason: 'payment after the order was closed',
        nextCheckAt: input.now,
        createdBy: input.actor,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning();
    await recordAudit(tx, { actor: input.actor, action: 'refund.late_payment', subject: `order:${order.orderNo}`, after: { refundNo: merchantRefundNo, amount: formatMinorUnits(order.payAmountMinor), tradeNo: late.tradeNo } });
    return { row: created!, created: true, channel };
  });
  if (refund.created && refund.channel?.offered) await sendRefund(db, refund.channel, refund.row.id);
  const [current] = await db.select().from(refunds).where(eq(refunds.id, refund.row.id));
  return current!;
}
