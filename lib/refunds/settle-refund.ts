import { and, eq, inArray, max, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications, OPEN_REFUND_STATES, orders, refunds, type OrderRow, type RefundRow } from '../db/schema';
import { enqueueNotice } from '../notifications/enqueue';
import type { RefundOutcome } from './channel-refunds';
import { refundNoticeFields } from './refund-view';

/** A processing refund is asked about again this long after (Alipay advises 10 s or more after the request). */
export const REFUND_CHECK_SPACING_MS = 15_000;
/** An abnormal refund waits for the merchant's remedy at WeChat Pay: asked about again this long after. */
export const ABNORMAL_CHECK_SPACING_MS = 10 * 60_000;

type FinalOutcome = Extract<RefundOutcome, { state: 'succeeded' | 'failed' | 'closed' }>;

/**
 * The merchant's notice of the refund's new state, to its own notifyUrl: the next delivery cycle of the refund's
 * notice (an abnormal refund is notified twice: abnormal, then its final state), an earlier one still retrying
 * superseded so that an older state never arrives after a newer one.
 */
async function noticeRefund(tx: Database, refund: RefundRow, order: OrderRow, now: Date) {
  if (!refund.notifyUrl) return;
  const same = and(eq(notifications.orderId, order.id), eq(notifications.kind, 'refund'), eq(notifications.subject, String(refund.id)));
  await tx.update(notifications).set({ status: 'superseded', leaseOwner: null, leaseUntil: null }).where(and(same, eq(notifications.status, 'pending')));
  const [latest] = await tx.select({ cycle: max(notifications.cycle) }).from(notifications).where(same);
  await enqueueNotice(tx, { orderId: order.id, kind: 'refund', subject: String(refund.id), notifyUrl: refund.notifyUrl, fields: refundNoticeFields(refund, order) }, now, (latest?.cycle ?? 0) + 1);
}

/**
 * Moves a processing or abnormal refund to a final state, once: a conditional update, and in the same transaction the
 * order's sums (a failed or closed refund frees its reservation; a succeeded one adds to the refunded total) and the
 * merchant's notice. Reporting the same outcome again changes nothing.
 */
async function finish(db: Database, refundId: number, outcome: FinalOutcome, now: Date): Promise<RefundRow | undefined> {
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
      .where(and(eq(refunds.id, refundId), inArray(refunds.state, [...OPEN_REFUND_STATES])))
      .returning();
    if (!finished) return undefined;
    const sums =
      outcome.state === 'succeeded'
        ? { refundedMinor: sql`${orders.refundedMinor} + ${finished.amountMinor}` }
        : { refundReservedMinor: sql`${orders.refundReservedMinor} - ${finished.amountMinor}` };
    const [order] = await tx.update(orders).set(sums).where(eq(orders.id, finished.orderId)).returning();
    await noticeRefund(tx, finished, order!, now);
    return finished;
  });
}

/**
 * A processing refund turns abnormal (WeChat Pay's ABNORMAL): its amount stays reserved, nothing is added to the
 * refunded total, the merchant is notified with status `abnormal`, and the upstream is asked about it again.
 */
async function markAbnormal(db: Database, refundId: number, outcome: Extract<RefundOutcome, { state: 'abnormal' }>, now: Date) {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [marked] = await tx
      .update(refunds)
      .set({
        state: 'abnormal',
        upstreamAccepted: true,
        upstreamAcceptedAt: sql`COALESCE(${refunds.upstreamAcceptedAt}, ${outcome.acceptedAt ?? now})`,
        failureReason: outcome.reason.slice(0, 500),
        ...(outcome.upstreamRefundId ? { upstreamRefundId: outcome.upstreamRefundId } : {}),
        nextCheckAt: new Date(now.getTime() + ABNORMAL_CHECK_SPACING_MS),
        updatedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.state, 'processing')))
      .returning();
    if (!marked) return;
    const [order] = await tx.select().from(orders).where(eq(orders.id, marked.orderId));
    await noticeRefund(tx, marked, order!, now);
  });
}

/** Records what the upstream said of an open refund: a final state, abnormal, or when to ask again. */
export async function settleRefund(db: Database, refundId: number, outcome: RefundOutcome, now: Date): Promise<void> {
  if (outcome.state === 'succeeded' || outcome.state === 'failed' || outcome.state === 'closed') {
    await finish(db, refundId, outcome, now);
    return;
  }
  if (outcome.state === 'abnormal') {
    await markAbnormal(db, refundId, outcome, now);
    return;
  }
  const accepted = outcome.state === 'processing';
  const [current] = await db.select({ state: refunds.state }).from(refunds).where(eq(refunds.id, refundId));
  // An abnormal refund the upstream still reports abnormal, or cannot tell about now, keeps its state and its reason.
  if (current?.state === 'abnormal' && !accepted) {
    await db.update(refunds).set({ nextCheckAt: new Date(now.getTime() + ABNORMAL_CHECK_SPACING_MS), updatedAt: now }).where(and(eq(refunds.id, refundId), eq(refunds.state, 'abnormal')));
    return;
  }
  await db
    .update(refunds)
    .set({
      // WeChat Pay takes an abnormal refund up again (PROCESSING) once the merchant applied its remedy.
      ...(accepted ? { upstreamAccepted: true, upstreamAcceptedAt: sql`COALESCE(${refunds.upstreamAcceptedAt}, ${outcome.acceptedAt ?? now})`, state: 'processing' as const } : {}),
      ...(accepted && outcome.upstreamRefundId ? { upstreamRefundId: outcome.upstreamRefundId } : {}),
      failureReason: outcome.state === 'unknown' ? `not confirmed yet: ${outcome.reason.slice(0, 400)}` : null,
      nextCheckAt: new Date(now.getTime() + REFUND_CHECK_SPACING_MS),
      updatedAt: now,
    })
    .where(and(eq(refunds.id, refundId), inArray(refunds.state, [...OPEN_REFUND_STATES])));
}
