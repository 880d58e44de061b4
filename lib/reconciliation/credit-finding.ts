import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, orders, reconciliationFindings } from '../db/schema';
import { actionRefused, notFound } from '../errors/domain-error';
import { formatMinorUnits } from '../money/decimal-amount';
import { completeOrderManually } from '../orders/complete-order-manually';
import { creditRefusal } from './credit-refusal';
import { latePaymentRecorded } from './late-payment-recorded';

/**
 * The one action on a finding: an order the upstream was paid for but that is not paid here is credited (the
 * operator's manual completion: paid at the upstream's pay time with its trade number, the merchant notified, the
 * audit entry written) and the finding is marked resolved, all in one transaction. Only a finding of kind
 * missing_here with an order here and the same amount on both sides can be credited, only once, and never a payment
 * that came after the order was closed (creditRefusal).
 */
export async function creditFinding(db: Database, input: { findingId: number; actor: string; now: Date }) {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [found] = await tx
      .select({
        finding: reconciliationFindings,
        merchantOrderNo: orders.merchantOrderNo,
        appId: merchants.appId,
        order: { orderNo: orders.orderNo, status: orders.status, payAmountMinor: orders.payAmountMinor, closedAt: orders.closedAt },
        latePaymentRecorded: latePaymentRecorded(orders.id),
      })
      .from(reconciliationFindings)
      .leftJoin(orders, eq(orders.id, reconciliationFindings.orderId))
      .leftJoin(merchants, eq(merchants.id, orders.merchantId))
      .where(eq(reconciliationFindings.id, input.findingId))
      .for('update', { of: reconciliationFindings })
      .limit(1);
    if (!found) throw notFound(`finding ${input.findingId}`);
    const { finding } = found;
    const refusal = creditRefusal({ ...finding, order: found.order && { ...found.order, latePaymentRecorded: found.latePaymentRecorded } });
    if (refusal) throw actionRefused(refusal);
    if (!found.appId || !found.merchantOrderNo) throw actionRefused(`finding ${finding.id} is not a payment to credit to an order here`);
    const completed = await completeOrderManually(tx, {
      appId: found.appId,
      merchantOrderNo: found.merchantOrderNo,
      reason: `reconciliation of ${finding.reference}: paid upstream (${finding.upstreamReference}, ${formatMinorUnits(finding.upstreamAmountMinor!)}) but not here`,
      actor: input.actor,
      now: input.now,
      paidAt: finding.upstreamAt ?? input.now,
      payment: finding.upstreamReference ? { tradeNo: finding.upstreamReference } : undefined,
    });
    await tx
      .update(reconciliationFindings)
      .set({ resolvedAt: input.now, resolvedBy: input.actor })
      .where(and(eq(reconciliationFindings.id, finding.id), isNull(reconciliationFindings.resolvedAt)));
    // The same payment found again by another run (a re-run of another day) is resolved with it.
    await tx.execute(sql`UPDATE reconciliation_findings SET resolved_at = ${input.now}, resolved_by = ${input.actor} WHERE order_id = ${finding.orderId} AND kind = 'missing_here' AND resolved_at IS NULL`);
    return { orderNo: completed.order.orderNo, auditId: completed.auditId };
  });
}
