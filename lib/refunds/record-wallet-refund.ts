import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { DomainError, invalidParameter } from '../errors/domain-error';
import { orders, refunds } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { newOrderNo } from '../orders/identifiers';
import { recordAudit } from '../audit/record-audit';

/**
 * A refund the merchant made from its own wallet (USDT, whose keys the service never holds), recorded as succeeded:
 * the same sums under the order's lock and CHECK as any refund, its transaction id as the upstream's id, audited.
 */
export async function recordWalletRefund(
  db: Database,
  input: { merchantId: number; orderNo: string; amountMinor: bigint; transactionId: string; note: string | null; actor: string; now: Date },
) {
  const transactionId = input.transactionId.trim();
  if (!/^(0x)?[0-9A-Fa-f]{64}$/.test(transactionId)) throw invalidParameter('transactionId must be the transfer\'s transaction id (64 hex digits, 0x… on EVM chains)');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [order] = await tx.select().from(orders).where(and(eq(orders.merchantId, input.merchantId), eq(orders.orderNo, input.orderNo))).for('update');
    if (!order) throw new DomainError('not_found', { message: `order ${input.orderNo} not found` });
    if (order.status !== 'paid') throw new DomainError('order_not_refundable', { message: `order ${order.merchantOrderNo} is ${order.status}: only a paid order can be refunded` });
    const [reserved] = await tx
      .update(orders)
      .set({ refundReservedMinor: sql`${orders.refundReservedMinor} + ${input.amountMinor}`, refundedMinor: sql`${orders.refundedMinor} + ${input.amountMinor}` })
      .where(and(eq(orders.id, order.id), sql`${orders.refundReservedMinor} + ${input.amountMinor} <= ${orders.payAmountMinor}`))
      .returning();
    if (!reserved) {
      throw new DomainError('refund_exceeds_paid', { message: `the refund exceeds what is left to refund: ${formatMinorUnits(order.payAmountMinor - order.refundReservedMinor)}` });
    }
    const refundNo = newOrderNo('R', input.now);
    const [refund] = await tx
      .insert(refunds)
      .values({
        refundNo,
        merchantId: input.merchantId,
        orderId: order.id,
        merchantRefundNo: refundNo,
        amountMinor: input.amountMinor,
        reason: input.note,
        state: 'succeeded',
        upstreamRefundId: transactionId,
        upstreamAccepted: true,
        createdBy: input.actor,
        createdAt: input.now,
        updatedAt: input.now,
        finishedAt: input.now,
      })
      .returning();
    await recordAudit(tx, {
      actor: input.actor,
      action: 'refund.record',
      subject: `order:${order.orderNo}`,
      after: { refundNo, amount: formatMinorUnits(input.amountMinor), transactionId, note: input.note },
    });
    return { refund: refund!, order: reserved };
  });
}
