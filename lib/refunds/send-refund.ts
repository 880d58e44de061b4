import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, refunds } from '../db/schema';
import type { ChannelRefunds, RefundOutcome } from './channel-refunds';
import { settleRefund } from './settle-refund';

type OfferedRefunds = Extract<ChannelRefunds, { offered: true }>;

/** Requests per refund in one go when the outcome stays unknown; the poller carries on after. */
const REQUESTS_AT_ONCE = 3;
const PAUSES_MS = [300, 1_000];

async function attemptOf(db: Database, refundId: number) {
  const [row] = await db.select().from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId)).where(eq(refunds.id, refundId));
  return row && { refund: row.refunds, order: row.orders };
}

/** One request upstream, counted; a failure of ours to reach it is an unknown outcome, never a refusal. */
async function requestOnce(db: Database, channel: OfferedRefunds, refundId: number): Promise<RefundOutcome> {
  const attempt = await attemptOf(db, refundId);
  if (!attempt || attempt.refund.state !== 'processing') return { state: 'unknown', reason: 'refund is no longer processing' };
  await db.update(refunds).set({ requestCount: sql`${refunds.requestCount} + 1` }).where(eq(refunds.id, refundId));
  try {
    return await channel.request(db, attempt);
  } catch (error) {
    return { state: 'unknown', reason: error instanceof Error ? error.message.slice(0, 300) : String(error) };
  }
}

/**
 * Sends a processing refund upstream and records the outcome. An unknown outcome (timeout, system error) is sent
 * again with the same refund number and amount, a few times at once; then the poller carries on.
 */
export async function sendRefund(db: Database, channel: OfferedRefunds, refundId: number, clock: () => Date = () => new Date()): Promise<RefundOutcome> {
  let outcome = await requestOnce(db, channel, refundId);
  for (let sent = 1; sent < REQUESTS_AT_ONCE && outcome.state === 'unknown'; sent += 1) {
    await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[sent - 1]));
    outcome = await requestOnce(db, channel, refundId);
  }
  await settleRefund(db, refundId, outcome, clock());
  return outcome;
}

/**
 * The poller's step for one processing or abnormal refund: ask the upstream; a processing refund it never received
 * (or whose request had no trustworthy answer and was never accepted) is sent again, with the same number and amount.
 */
export async function checkRefund(db: Database, channel: OfferedRefunds, refundId: number, now: Date): Promise<RefundOutcome> {
  const attempt = await attemptOf(db, refundId);
  if (!attempt || (attempt.refund.state !== 'processing' && attempt.refund.state !== 'abnormal')) return { state: 'unknown', reason: 'refund is no longer open' };
  let outcome: RefundOutcome;
  try {
    outcome = await channel.check(db, attempt);
  } catch (error) {
    outcome = { state: 'unknown', reason: error instanceof Error ? error.message.slice(0, 300) : String(error) };
  }
  const neverTaken = outcome.state === 'not_found' || (outcome.state === 'unknown' && !attempt.refund.upstreamAccepted);
  if (neverTaken && attempt.refund.state === 'processing') return sendRefund(db, channel, refundId, () => now);
  await settleRefund(db, refundId, outcome, now);
  return outcome;
}
