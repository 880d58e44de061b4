import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, refunds, type RefundRow } from '../db/schema';
import { enqueueNotice } from '../notifications/enqueue';
import type { RefundOutcome } from './channel-refunds';
import { refundNoticeFields } from './refund-view';

/** A processing refund is asked about again this long after (Alipay advises 10 s or more after the request). */
export const REFUND_CHECK_SPACING_MS = 15_000;

/**
 * Moves a processing refund to a final state, once: a conditional update, and in the same transaction the order's
 * sums (a failed or closed refund frees its reservation; a succeeded one adds to the refunded total) and the
 * merchant's notice to the refund's own notifyUrl. Reporting the same outcome again changes nothing.
 */
async function finish(db: Database, refundId: number, outcome: Extract<RefundOutcome, { state: 'succeeded' | 'failed' | 'closed' }>, now: Date): Promise<RefundRow | undefined> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [finished] = await tx
      .update(refunds)
      .set({
        state: outcome.state,
        failureReason: outcome.state === 'succeeded' ? null : outcome.reason.slice(0, 500),
        ...(outcome.state === 'succeeded' && outcome.upstreamRefundId ? { upstreamRefundId: outcome.upstreamRefundId } : {}),
        ...(outcome.state === 'succeeded' ? { upstreamAcceptedAt: sql`COALESCE(${refunds.upstreamAcceptedAt}, ${outcome.acceptedAt ?? now})` } : {}),
        nextCheckAt: null,
        // The upstream's time when it gives one: the bill lists the refund on that day, not on the day we heard of it.
        finishedAt: (outcome.state === 'succeeded' && outcome.finishedAt) || now,
        updatedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.state, 'processing')))
      .returning();
    if (!finished) return undefined;
    const sums =
      outcome.state === 'succeeded'
        ? { refundedMinor: sql`${orders.refundedMinor} + ${finished.amountMinor}` }
        : { refundReservedMinor: sql`${orders.refundReservedMinor} - ${finished.amountMinor}` };
    const [order] = await tx.update(orders).set(sums).where(eq(orders.id, finished.orderId)).returning();
    if (finished.notifyUrl) {
      await enqueueNotice(tx, { orderId: order!.id, kind: 'refund', subject: String(finished.id), notifyUrl: finished.notifyUrl, fields: refundNoticeFields(finished, order!) }, now);
    }
    return finished;
  });
}

/** Records what the upstream said of a processing refund: a final state, or when to ask again. */
export async function settleRefund(db: Database, refundId: number, outcome: RefundOutcome, now: Date): Promise<void> {
  if (outcome.state === 'succeeded' || outcome.state === 'failed' || outcome.state === 'closed') {
    await finish(db, refundId, outcome, now);
    return;
  }
  const accepted = outcome.state === 'processing';
  await db
    .update(refunds)
    .set({
      ...(accepted ? { upstreamAccepted: true, upstreamAcceptedAt: sql`COALESCE(${refunds.upstreamAcceptedAt}, ${outcome.acceptedAt ?? now})` } : {}),
      ...(accepted && outcome.upstreamRefundId ? { upstreamRefundId: outcome.upstreamRefundId } : {}),
      failureReason: outcome.state === 'unknown' ? `not confirmed yet: ${outcome.reason.slice(0, 400)}` : null,
      nextCheckAt: new Date(now.getTime() + REFUND_CHECK_SPACING_MS),
      updatedAt: now,
    })
    .where(and(eq(refunds.id, refundId), eq(refunds.state, 'processing')));
}
