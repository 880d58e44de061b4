import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { appSecretOf } from '../merchants/app-secret-cache';
import type { Clock } from '../clock';
import { isAcknowledged } from './acknowledgement';
import { circuitOutcome } from './circuit-breaker';
import type { ClaimedNotification } from './claim';
import { notificationForm, type ChannelNotificationFields } from './notification-form';
import { sign } from '../signing';
import { postForm, type PostOutcome, type PostTimeouts } from './post-form';
import { nextAttemptAfter } from './retry-plan';
import { countNotificationAttempt } from '../observability/metrics';
import { log } from '../observability/logger';

const EXCERPT_BYTES = 1024;

function excerpt(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  return bytes.length <= EXCERPT_BYTES ? body : bytes.subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\uFFFD$/, '');
}

/** The signed form of the attempt: signed at send time, so a rotated AppSecret takes effect for every later attempt. */
function signedForm(claim: ClaimedNotification, channelFields: ChannelNotificationFields): Record<string, string> {
  const appSecret = appSecretOf(claim.appSecretEncrypted);
  if (!claim.fields) return notificationForm(claim.order, channelFields, claim.appId, appSecret);
  const fields = { appId: claim.appId, ...claim.fields };
  return { ...fields, signature: sign(fields, appSecret) };
}

function attemptDelivery(claim: ClaimedNotification, channelFields: ChannelNotificationFields, timeouts: PostTimeouts): Promise<PostOutcome> {
  if (!claim.notifyUrl) return Promise.resolve({ body: '', latencyMs: 0, error: claim.kind === 'payment' ? 'the order has no notifyUrl' : `the ${claim.kind} request named no notifyUrl` });
  return postForm(claim.notifyUrl, signedForm(claim, channelFields), timeouts);
}

function failureText(outcome: PostOutcome): string {
  if (outcome.error) return outcome.error;
  const status = outcome.httpStatus!;
  return status >= 300 && status < 400 ? `redirect (HTTP ${status}) not followed` : `not acknowledged (HTTP ${status})`;
}

/**
 * Delivers one claimed attempt and records it in one statement: the attempt's result, its destination's circuit,
 * and the notification moved to delivered, its next attempt, or failed. Only the lease holder of this very attempt
 * may move the notification on.
 */
export async function deliverClaimed(
  db: Database,
  claim: ClaimedNotification,
  options: { workerId: string; clock: Clock; channelFields: ChannelNotificationFields } & PostTimeouts,
): Promise<'acknowledged' | 'rejected'> {
  const outcome = await attemptDelivery(claim, options.channelFields, options);
  const acknowledged = outcome.error === undefined && outcome.httpStatus !== undefined && isAcknowledged(outcome.httpStatus, outcome.body);
  const finishedAt = options.clock.now();
  const error = acknowledged ? null : failureText(outcome);
  const next = acknowledged ? undefined : nextAttemptAfter(claim.attemptNo, finishedAt, claim.giveUpAt);
  const status = acknowledged ? 'delivered' : next ? 'pending' : 'failed';
  const circuit = circuitOutcome(claim.destination, {
    answered: outcome.httpStatus !== undefined,
    unanswered: outcome.unanswered === true,
    at: finishedAt,
    error,
  });

  const recorded = await db.execute(sql`
    WITH ${circuit ? sql`circuit AS (${circuit}),` : sql``} attempt AS (
      UPDATE notification_attempts
      SET finished_at = ${finishedAt}, outcome = ${acknowledged ? 'acknowledged' : 'rejected'}, http_status = ${outcome.httpStatus ?? null},
          latency_ms = ${outcome.latencyMs}, response_excerpt = ${excerpt(outcome.body)}, error = ${error}
      WHERE notification_id = ${claim.id} AND attempt_no = ${claim.attemptNo}
    )
    UPDATE notifications
    SET status = ${status}, lease_owner = NULL, lease_until = NULL, last_error = ${error},
        next_attempt_at = coalesce(${next ?? null}::timestamptz, next_attempt_at),
        delivered_at = ${acknowledged ? finishedAt : null}, failed_at = ${status === 'failed' ? finishedAt : null}
    WHERE id = ${claim.id} AND status = 'pending' AND lease_owner = ${options.workerId} AND attempt_count = ${claim.attemptNo}`);
  if ((recorded.rowCount ?? 0) > 0) {
    const result = status === 'pending' ? 'retried' : status;
    countNotificationAttempt(claim.order, result, finishedAt);
    // The attempt's line names the submit's request id and the order, as the submit's own line did.
    const line = { component: 'notifications', requestId: claim.requestId ?? undefined, orderNo: claim.order.orderNo, attempt: claim.attemptNo, cycle: claim.cycle, result, httpStatus: outcome.httpStatus, latencyMs: outcome.latencyMs };
    if (acknowledged) log().info(line, 'notification delivered');
    else log().warn({ ...line, error }, status === 'failed' ? 'notification failed: given up' : 'notification attempt failed: retried later');
  }
  return acknowledged ? 'acknowledged' : 'rejected';
}
