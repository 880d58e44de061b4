import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, type OrderRow } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { formatMinorUnits } from '../../money/decimal-amount';
import { channelPollerJob } from '../poller/channel-poller-job';
import { closePendingOrder, unansweredTooLong } from '../poller/close-pending-order';
import { pollConcurrently, type PollOutcome, type PollSummary } from '../poller/poll-concurrently';
import { settleUpstreamPayment } from '../poller/settle-upstream-payment';
import { AlipayUpstreamError, queryAlipayTrade, type AlipayQueryResult } from './client';
import { alipayConfig, AlipayNotConfigured, type AlipayConfig } from './config';
import { CLOCK_TOLERANCE_MS } from './receive-notify';

/** A new order is first asked about after this long (the payer is still on the way to Alipay). */
export const FIRST_CHECK_AFTER_MS = 60_000;
/** Then at most once per this long each, and once more when its window ends. */
export const CHECK_SPACING_MS = 60_000;
export { CLOSE_WITHOUT_ANSWER_AFTER_MS } from '../poller/close-pending-order';
export type { PollSummary } from '../poller/poll-concurrently';
const BATCH = 100;
const CONCURRENCY = 4;
const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** The next time this order may be asked about: after the spacing, but no later than the end of its window. */
async function scheduleNextCheck(db: Database, order: OrderRow, now: Date): Promise<void> {
  const next = Math.max(now.getTime() + 1, Math.min(now.getTime() + CHECK_SPACING_MS, order.expiresAt.getTime()));
  const at = now.getTime() >= order.expiresAt.getTime() ? new Date(now.getTime() + CHECK_SPACING_MS) : new Date(next);
  await db.update(orders).set({ upstreamCheckAfter: at }).where(and(eq(orders.id, order.id), eq(orders.status, 'pending')));
}

async function settle(db: Database, order: OrderRow, upstream: AlipayQueryResult, now: Date): Promise<PollOutcome> {
  const windowEnded = order.expiresAt.getTime() <= now.getTime();
  if (upstream.found && PAID_STATES.has(upstream.status)) {
    const reported = upstream.amountMinor === undefined ? 'no amount' : formatMinorUnits(upstream.amountMinor);
    return settleUpstreamPayment(db, {
      channel: 'ALIPAY',
      via: 'alipay-query',
      paidDetail: 'payment found by alipay.trade.query (no notification had arrived)',
      clockToleranceMs: CLOCK_TOLERANCE_MS,
      order,
      payment: { amountMinor: upstream.amountMinor, amountMismatchDetail: `Alipay reports ${reported} paid`, payTime: upstream.payTime, tradeNo: upstream.tradeNo },
      now,
    });
  }
  const cannotBePaid = upstream.found && upstream.status === 'TRADE_CLOSED';
  if (windowEnded || cannotBePaid) return (await closePendingOrder(db, order, now)) ? 'closed' : 'pending';
  await scheduleNextCheck(db, order, now);
  return 'pending';
}

async function checkOrder(db: Database, config: AlipayConfig, order: OrderRow, now: Date, log?: (line: string) => void): Promise<PollOutcome> {
  const credential = await findBoundCredential(db, order);
  try {
    if (!credential) throw new AlipayUpstreamError(`order ${order.orderNo} has no credential to ask Alipay with`);
    return await settle(db, order, await queryAlipayTrade(config, credential, order.orderNo), now);
  } catch (error) {
    if (!(error instanceof AlipayUpstreamError)) throw error;
    log?.(`alipay: query ${order.orderNo} failed: ${error.message}`);
    if (unansweredTooLong(order, now)) return (await closePendingOrder(db, order, now)) ? 'closed' : 'failed';
    await scheduleNextCheck(db, order, now);
    return 'failed';
  }
}

/**
 * Asks Alipay (alipay.trade.query, answers verified) about pending ALIPAY orders that are due, so that a lost
 * notification does not lose a payment: paid → marked paid (with the merchant's notification); past its window and
 * not paid, or closed at Alipay → closed. Each order is asked about a minute after creation, then at most once a
 * minute, and once more at the end of its window; at most BATCH orders per run.
 */
export async function pollPendingAlipayOrders(db: Database, now: Date, options: { config?: AlipayConfig; log?: (line: string) => void } = {}): Promise<PollSummary> {
  const config = options.config ?? alipayConfig();
  const dueAt = sql`coalesce(${orders.upstreamCheckAfter}, ${orders.createdAt} + make_interval(secs => ${FIRST_CHECK_AFTER_MS / 1000}))`;
  const due = await db
    .select()
    .from(orders)
    .where(and(eq(orders.channel, 'ALIPAY'), eq(orders.status, 'pending'), sql`(${dueAt} <= ${now} OR ${orders.expiresAt} <= ${now})`))
    .orderBy(asc(dueAt))
    .limit(BATCH);
  return pollConcurrently(due, CONCURRENCY, (order) => checkOrder(db, config, order, now, options.log));
}

export const alipayPollerJob = channelPollerJob({
  channel: 'alipay',
  interval: { envName: 'ALIPAY_POLL_INTERVAL_MS', defaultMs: 15_000 },
  config: alipayConfig,
  notConfigured: AlipayNotConfigured,
  poll: pollPendingAlipayOrders,
  failedLabel: 'not answered',
});
