import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, notificationAttempts, notifications, orders } from '../db/schema';
import { decryptSecret } from '../crypto/secret-box';
import type { Clock } from '../clock';
import { isAcknowledged } from './acknowledgement';
import type { ClaimedNotification } from './claim';
import { notificationForm } from './notification-form';
import { postForm, type PostOutcome } from './post-form';
import { nextAttemptAfter } from './retry-plan';

const EXCERPT_BYTES = 1024;

function excerpt(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  return bytes.length <= EXCERPT_BYTES ? body : bytes.subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\uFFFD$/, '');
}

async function attemptDelivery(db: Database, claim: ClaimedNotification, timeoutMs: number): Promise<PostOutcome> {
  const [row] = await db
    .select({ order: orders, appId: merchants.appId, secret: merchants.appSecretEncrypted })
    .from(orders)
    .innerJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(eq(orders.id, claim.orderId))
    .limit(1);
  if (!row?.order.notifyUrl) return { body: '', latencyMs: 0, error: 'the order has no notifyUrl' };
  // Signed at send time, so a rotated AppSecret takes effect for every later attempt.
  return postForm(row.order.notifyUrl, notificationForm(row.order, row.appId, decryptSecret(row.secret)), timeoutMs);
}

/** Delivers one claimed attempt and records it; the notification moves to delivered, its next attempt, or failed. */
export async function deliverClaimed(
  db: Database,
  claim: ClaimedNotification,
  options: { workerId: string; clock: Clock; timeoutMs?: number },
): Promise<'acknowledged' | 'rejected'> {
  const outcome = await attemptDelivery(db, claim, options.timeoutMs ?? 10_000);
  const acknowledged = outcome.error === undefined && outcome.httpStatus !== undefined && isAcknowledged(outcome.httpStatus, outcome.body);
  const finishedAt = options.clock.now();
  const error =
    outcome.error ??
    (acknowledged ? null : outcome.httpStatus !== undefined && outcome.httpStatus >= 300 && outcome.httpStatus < 400 ? `redirect (HTTP ${outcome.httpStatus}) not followed` : `not acknowledged (HTTP ${outcome.httpStatus})`);

  await db.transaction(async (tx) => {
    await tx
      .update(notificationAttempts)
      .set({
        finishedAt,
        outcome: acknowledged ? 'acknowledged' : 'rejected',
        httpStatus: outcome.httpStatus ?? null,
        latencyMs: outcome.latencyMs,
        responseExcerpt: excerpt(outcome.body),
        error,
      })
      .where(and(eq(notificationAttempts.notificationId, claim.id), eq(notificationAttempts.attemptNo, claim.attemptNo)));
    const next = acknowledged ? undefined : nextAttemptAfter(claim.attemptNo, finishedAt);
    await tx
      .update(notifications)
      .set(
        acknowledged
          ? { status: 'delivered', deliveredAt: finishedAt, leaseOwner: null, leaseUntil: null, lastError: null }
          : next
            ? { nextAttemptAt: next, leaseOwner: null, leaseUntil: null, lastError: error }
            : { status: 'failed', failedAt: finishedAt, leaseOwner: null, leaseUntil: null, lastError: error },
      )
      // Only the lease holder of this very attempt may move the notification on.
      .where(
        and(
          eq(notifications.id, claim.id),
          eq(notifications.status, 'pending'),
          eq(notifications.leaseOwner, options.workerId),
          eq(notifications.attemptCount, claim.attemptNo),
        ),
      );
  });
  return acknowledged ? 'acknowledged' : 'rejected';
}
