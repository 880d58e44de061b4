import type { Database } from '../db/client';
import { actionRefused } from '../errors/domain-error';
import { recordAudit } from '../audit/record-audit';
import { lockMerchantOrderByAppId } from './find-merchant-order-by-app-id';
import { markOrderPaid } from './order-status';

export interface ManualCompletion {
  appId: string;
  merchantOrderNo: string;
  reason: string;
  actor: string;
  now: Date;
  /** When the upstream says the payer paid (a reconciliation credit), else now. */
  paidAt?: Date;
  /** The payment's own reference when known (the upstream's trade number; a chain transfer's transaction id and sender). */
  payment?: { tradeNo: string; payer?: string };
}

/**
 * An operator marks paid an order whose payment the upstream confirmed out of band (also one already closed).
 * The paid state, the notification and the audit entry are one transaction.
 */
export async function completeOrderManually(db: Database, input: ManualCompletion) {
  if (input.reason.trim() === '') throw actionRefused('a reason is required');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const order = await lockMerchantOrderByAppId(tx, input.appId, input.merchantOrderNo);
    if (order.status === 'paid') throw actionRefused(`order ${order.orderNo} is already paid`);
    const paidAt = input.paidAt ?? input.now;
    const result = await markOrderPaid(tx, { orderId: order.id, via: 'manual', paidAt, allowClosed: true, tradeNo: input.payment?.tradeNo, payer: input.payment?.payer });
    if (!result.changed) throw actionRefused(`order ${order.orderNo} could not be completed`);
    const auditId = await recordAudit(tx, {
      actor: input.actor,
      action: 'order.complete',
      subject: `order:${order.orderNo}`,
      reason: input.reason,
      before: { status: order.status },
      after: { status: 'paid', paidVia: 'manual', paidAt: paidAt.toISOString(), ...(input.payment ? { tradeNo: input.payment.tradeNo } : {}) },
    });
    return { order: result.order, auditId };
  });
}
