import { sql } from 'drizzle-orm';
import { getDb } from '../lib/db/client';
import type { FailoverBed } from './failover-bed';
import { overlappingRuns } from './failover-job-probe';
import type { Answer, FailoverRun } from './failover-load';
import { storedOrderCounts } from './stored-orders';

/** How long the drill waits, after the load, for every credited payment's notification to be delivered. */
const NOTIFIED_WITHIN_MS = 30_000;

export interface FailoverFigures {
  answers: { before: Answer[]; during: Answer[]; after: Answer[]; other: Answer[]; http500: number };
  firstSuccessAfterPromotionMs: number;
  orders: { acknowledged: number; foundOnce: number; lost: number; doubled: number };
  /** Paid orders on the new primary: each credited payment, read where it was committed. */
  notifications: { credited: number; creditedButNotPaid: number; paid: number; notified: number; lost: number; deliveredTwice: number; beyondLease: number };
  listeningAfterMs: number;
  /** firstRunAfterPromotionMs is negative when the run began as the standby accepted writes, before the drill saw it promoted. */
  jobs: { firstRunAfterPromotionMs: number; inFlightAtKill: number; abortedAfterKillMs: number; overlapping: number };
}

const isAcknowledged = (answer: Answer) => answer.status === 200 && answer.code === 0;
const isUnavailable = (answer: Answer) => answer.status === 503 && answer.code === 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per paid order of the merchant on the new primary: its payment notice's status and its attempts. */
async function paidOrders(merchantId: number) {
  const { rows } = await getDb().execute<{ merchant_order_no: string; status: string | null; attempts: number; acknowledged: number }>(sql`
    SELECT o.merchant_order_no, n.status,
           (SELECT count(*)::int FROM notification_attempts a WHERE a.notification_id = n.id) AS attempts,
           (SELECT count(*)::int FROM notification_attempts a WHERE a.notification_id = n.id AND a.outcome = 'acknowledged') AS acknowledged
    FROM orders o LEFT JOIN notifications n ON n.order_id = o.id AND n.kind = 'payment'
    WHERE o.merchant_id = ${merchantId} AND o.status = 'paid'`);
  return rows;
}

/** Waits (30 s at most) until no credited payment's notification is pending, then reads them. */
async function settledPaidOrders(merchantId: number) {
  const deadline = Date.now() + NOTIFIED_WITHIN_MS;
  for (;;) {
    const rows = await paidOrders(merchantId);
    if (rows.every((row) => row.status !== 'pending') || Date.now() > deadline) return rows;
    await sleep(200);
  }
}

/**
 * The drill's figures, read on the new primary after the load. A notification delivered twice is within the lease
 * rule when the receiver got it no more often than attempts were claimed for it: a second attempt is claimed only
 * once the first one's lease expired with no outcome recorded (its worker died, or the primary died before the
 * outcome was written), so the merchant may see a notice again, never from two attempts running at once.
 */
export async function failoverFigures(bed: FailoverBed, run: FailoverRun): Promise<FailoverFigures> {
  const { answers, killedAt, promotedAt } = run;
  const acknowledged = answers.filter(isAcknowledged);
  const found = await storedOrderCounts(acknowledged.map((answer) => answer.merchantOrderNo));
  const paid = await settledPaidOrders(bed.merchant.id);
  const paidNos = new Set(paid.map((row) => row.merchant_order_no));
  const received = new Map<string, number>();
  for (const { form } of bed.receiver.received) received.set(form.merchantOrderNo!, (received.get(form.merchantOrderNo!) ?? 0) + 1);
  const runs = bed.jobRuns;
  const inFlightAtKill = runs.filter((jobRun) => jobRun.startedAt <= killedAt && jobRun.endedAt > killedAt);
  return {
    answers: {
      before: answers.filter((answer) => answer.at < killedAt),
      during: answers.filter((answer) => answer.at >= killedAt && answer.at <= promotedAt),
      after: answers.filter((answer) => answer.at > promotedAt),
      other: answers.filter((answer) => !isAcknowledged(answer) && !isUnavailable(answer)),
      http500: answers.filter((answer) => answer.status === 500).length,
    },
    firstSuccessAfterPromotionMs: Math.min(...answers.filter((answer) => answer.at > promotedAt && isAcknowledged(answer)).map((answer) => answer.at - promotedAt)),
    orders: {
      acknowledged: acknowledged.length,
      foundOnce: found.filter((count) => count === 1).length,
      lost: found.filter((count) => count === 0).length,
      doubled: found.filter((count) => count > 1).length,
    },
    notifications: {
      credited: run.credited.length,
      creditedButNotPaid: run.credited.filter((merchantOrderNo) => !paidNos.has(merchantOrderNo)).length,
      paid: paid.length,
      notified: paid.filter((row) => (received.get(row.merchant_order_no) ?? 0) > 0).length,
      lost: paid.filter((row) => (received.get(row.merchant_order_no) ?? 0) === 0).length,
      deliveredTwice: paid.filter((row) => (received.get(row.merchant_order_no) ?? 0) > 1).length,
      beyondLease: paid.filter((row) => (received.get(row.merchant_order_no) ?? 0) > row.attempts || row.acknowledged > 1).length,
    },
    listeningAfterMs: run.listeningAfterMs,
    jobs: {
      // Counted from the kill: the standby accepts writes a moment before the drill sees it promoted, and a run may start then.
      firstRunAfterPromotionMs: Math.min(...runs.filter((jobRun) => jobRun.startedAt > killedAt).map((jobRun) => jobRun.startedAt - promotedAt)),
      inFlightAtKill: inFlightAtKill.length,
      abortedAfterKillMs: Math.max(0, ...inFlightAtKill.map((jobRun) => jobRun.endedAt - killedAt)),
      overlapping: overlappingRuns(runs).length,
    },
  };
}

function byAnswer(list: readonly Answer[]): string {
  const other = list.filter((answer) => !isAcknowledged(answer) && !isUnavailable(answer)).length;
  return `${list.filter(isAcknowledged).length} code 0 / ${list.filter(isUnavailable).length} 503+1000 / ${other} other`;
}

/** The figures as the drill prints them, one line per subject. */
export function describeFigures(figures: FailoverFigures, run: FailoverRun): string[] {
  const { answers, orders, notifications, jobs } = figures;
  return [
    `requests: before the kill ${byAnswer(answers.before)}; between kill and promotion (${run.promotedAt - run.killedAt} ms) ${byAnswer(answers.during)}; after the promotion ${byAnswer(answers.after)}; HTTP 500: ${answers.http500}`,
    `first success ${figures.firstSuccessAfterPromotionMs} ms after the promotion (${run.submitters} submitters)`,
    `orders: ${orders.acknowledged} acknowledged, ${orders.foundOnce} found once on the new primary, ${orders.lost} lost, ${orders.doubled} doubled`,
    `notifications: ${notifications.credited} credits answered (${notifications.creditedButNotPaid} of them not paid on the new primary), ${notifications.paid} paid orders on the new primary, ` +
      `${notifications.notified} notified, ${notifications.lost} lost, ${notifications.deliveredTwice} delivered twice (${notifications.beyondLease} beyond the lease rule)`,
    `LISTEN on the new primary ${figures.listeningAfterMs} ms after the promotion`,
    `jobs: first run on the new primary ${jobs.firstRunAfterPromotionMs} ms after the promotion; ${jobs.inFlightAtKill} run(s) in flight at the kill, ended ${jobs.abortedAfterKillMs} ms after it; ${jobs.overlapping} overlapping run(s)`,
  ];
}

/** What the drill fails on: each a sentence; none when the failover kept every rule. */
export function failoverProblems(figures: FailoverFigures): string[] {
  const problems: string[] = [];
  const { answers, orders, notifications, jobs } = figures;
  if (answers.before.filter(isAcknowledged).length === 0) problems.push('no order was acknowledged before the kill');
  if (answers.other.length > 0) problems.push(`${answers.other.length} answer(s) neither code 0 nor 503+1000`);
  if (answers.during.concat(answers.after).some((answer) => isUnavailable(answer) && answer.retryAfter === null)) problems.push('a 503 without Retry-After');
  if (!(figures.firstSuccessAfterPromotionMs <= 5_000)) problems.push('no success within 5 s of the promotion');
  if (orders.lost + orders.doubled > 0 || orders.foundOnce !== orders.acknowledged) problems.push('an acknowledged order is lost or doubled');
  if (notifications.paid === 0) problems.push('no payment was credited');
  if (notifications.creditedButNotPaid > 0) problems.push('a credit answered is not on the new primary');
  if (notifications.lost > 0) problems.push('a credited payment was never notified');
  if (notifications.beyondLease > 0) problems.push('a notification was delivered twice beyond the lease rule');
  if (!(figures.listeningAfterMs <= 5_000)) problems.push('LISTEN not back on the new primary within 5 s');
  if (!(jobs.firstRunAfterPromotionMs <= 5_000)) problems.push('the job did not run on the new primary within 5 s');
  if (jobs.overlapping > 0) problems.push('two runs of the job at once');
  return problems;
}
