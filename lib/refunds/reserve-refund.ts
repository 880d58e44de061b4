import { and, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { DomainError } from '../errors/domain-error';
import { orders, refunds, type OrderRow, type RefundRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { newOrderNo } from '../orders/identifiers';
import { recordAudit } from '../audit/record-audit';
import type { ChannelRefunds } from './channel-refunds';
import type { RefundRequest } from './refund-request';

export type ReservedRefund = { refund: RefundRow; order: OrderRow; created: boolean };

/** The same merchantRefundNo again: the same refund when every field agrees, else a refusal naming the first that differs. */
function sameRefund(existing: RefundRow, order: OrderRow, request: RefundRequest): RefundRow {
  const differing =
    existing.orderId !== order.id
      ? 'merchantOrderNo'
      : existing.amountMinor !== request.amountMinor
        ? 'refundAmount'
        : (existing.reason ?? null) !== request.reason
          ? 'reason'
          : (existing.notifyUrl ?? null) !== request.notifyUrl
            ? 'notifyUrl'
            : undefined;
  if (differing) throw new DomainError('idempotency_conflict', { message: `${differing} differs from the original refund ${existing.merchantRefundNo}` });
  return existing;
}

/**
 * Writes the refund as processing and reserves its amount on the order, in one transaction under the order's row
 * lock: the conditional UPDATE and the order's CHECK constraint keep the sum of refunds not failed or closed within
 * what was paid, whatever the concurrency. The same merchantRefundNo answers the refund it made. Audited.
 */
export async function reserveRefund(
  db: Database,
  input: { merchantId: number; request: RefundRequest; channelOf: (order: OrderRow) => ChannelRefunds; actor: string; now: Date },
): Promise<ReservedRefund> {
  const { request, now } = input;
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.merchantId, input.merchantId), eq(orders.merchantOrderNo, request.merchantOrderNo)))
      .for('update');
    if (!order) throw new DomainError('order_not_found');
    const [existing] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.merchantId, input.merchantId), eq(refunds.merchantRefundNo, request.merchantRefundNo)));
    if (existing) return { refund: sameRefund(existing, order, request), order, created: false };

    const channel = input.channelOf(order);
    if (!channel.offered) throw new DomainError('refund_not_offered', { message: channel.refusal });
    if (order.status !== 'paid') throw new DomainError('order_not_refundable', { message: `order ${order.merchantOrderNo} is ${order.status}: only a paid order can be refunded` });
    const [{ value: refundsSoFar } = { value: 0 }] = await tx.select({ value: count() }).from(refunds).where(eq(refunds.orderId, order.id));
    const refusal = channel.refuseBefore?.(order, { refundsSoFar, now });
    if (refusal) throw new DomainError('refund_limit_reached', { message: refusal });

    const [reserved] = await tx
      .update(orders)
      .set({ refundReservedMinor: sql`${orders.refundReservedMinor} + ${request.amountMinor}` })
      .where(and(eq(orders.id, order.id), sql`${orders.refundReservedMinor} + ${request.amountMinor} <= ${orders.payAmountMinor}`))
      .returning();
    if (!reserved) {
      const left = order.payAmountMinor - order.refundReservedMinor;
      throw new DomainError('refund_exceeds_paid', {
        message: `refundAmount ${formatMinorUnits(request.amountMinor)} exceeds what is left to refund of order ${order.merchantOrderNo}: ${formatMinorUnits(left)} of ${formatMinorUnits(order.payAmountMinor)}`,
      });
    }
    const [refund] = await tx
      .insert(refunds)
      .values({
        refundNo: newOrderNo('R', now),
        merchantId: input.merchantId,
        orderId: order.id,
        merchantRefundNo: request.merchantRefundNo,
        amountMinor: request.amountMinor,
        reason: request.reason,
        notifyUrl: request.notifyUrl,
        nextCheckAt: now,
        createdBy: input.actor,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(tx, {
      actor: input.actor,
      action: 'refund.submit',
      subject: `order:${order.orderNo}`,
      after: { refundNo: refund!.refundNo, merchantRefundNo: request.merchantRefundNo, amount: formatMinorUnits(request.amountMinor), reason: request.reason },
    });
    return { refund: refund!, order: reserved, created: true };
  });
}
