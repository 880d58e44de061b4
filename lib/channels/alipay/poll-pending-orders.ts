import { and, asc, eq, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, type OrderRow } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { channelPollerJob } from '../poller/channel-poller-job';
import { closePendingOrder, unansweredTooLong } from '../poller/close-pending-order';
import { pollConcurrently, type PollOutcome, type PollSummary } from '../poller/poll-concurrently';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import { AlipayUpstreamError, queryAlipayTrade, type AlipayQueryResult } from './client';
import { closeAtAlipay, PAID_STATES, settlePaid } from './close-trade';
import { alipayConfig, AlipayNotConfigured, type AlipayConfig } from './config';
import { alipayNotices } from './notices';

/** Then at most once per this long each, and once more when its window ends. */
export const CHECK_SPACING_MS = 60_000;
export { CLOSE_WITHOUT_ANSWER_AFTER_MS } from '../poller/close-pending-order';
export type { PollSummary } from '../poller/poll-concurrently';
const BATCH = 100;
const CONCURRENCY = 4;

/** The next time this order may be asked about: after the spacing, but no later than the end of its window. */
async function scheduleNextCheck(db: Database, order: OrderRow, now: Date): Promise<void> {
  const next = Math.max(now.getTime() + 1, Math.min(now.getTime() + CHECK_SPACING_MS, order.expiresAt.getTime()));
  const at = now.getTime() >= order.expiresAt.getTime() ? new Date(now.getTime() + CHECK_SPACING_MS) : new Date(next);
  await db.update(orders).set({ upstreamCheckAfter: at }).where(and(eq(orders.id, order.id), eq(orders.status, 'pending')));
}

/** The end of the window: closed at Alipay first (page pay may not honour time_expire), then here; a trade found paid meanwhile is paid. */
async function closeAtWindowEnd(db: Database, config: AlipayConfig, credential: UsableCredential, order: OrderRow, now: Date): Promise<PollOutcome> {
  const closing = await closeAtAlipay(db, config, credential, order, now);
  if (closing.settled) return closing.settled;
  return (await closePendingOrder(db, alipayNotices, order, now)) ? 'closed' : 'pending';
}

async function settle(db: Database, config: AlipayConfig, credential: UsableCredential, order: OrderRow, upstream: AlipayQueryResult, now: Date): Promise<PollOutcome> {
  if (upstream.found && PAID_STATES.has(upstream.status)) return settlePaid(db, order, upstream, now);
  if (upstream.found && upstream.status === 'TRADE_CLOSED') return (await closePendingOrder(db, alipayNotices, order, now)) ? 'closed' : 'pending';
  if (order.expiresAt.getTime() <= now.getTime()) return closeAtWindowEnd(db, config, credential, order, now);
  await scheduleNextCheck(db, order, now);
  return 'pending';
}

async function checkOrder(db: Database, config: AlipayConfig, order: OrderRow, now: Date, log?: (line: string) => void): Promise<PollOutcome> {
  const credential = await findBoundCredential(db, order);
  try {
    if (!credential) throw new AlipayUpstreamError(`order ${order.orderNo} has no credential to ask Alipay with`);
    return await settle(db, config, credential, order, await queryAlipayTrade(config, credential, order.orderNo), now);
  } catch (error) {
    if (!(error instanceof AlipayUpstreamError)) throw error;
    log?.(`alipay: ${order.orderNo}: ${error.message}`);
    if (unansweredTooLong(order, now)) return (await closePendingOrder(db, alipayNotices, order, now)) ? 'closed' : 'failed';
    await scheduleNextCheck(db, order, now);
    return 'failed';
  }
}

/**
 * Asks Alipay (alipay.trade.query, answers verified) about pending ALIPAY orders that are due, so that a lost
 * notification does not lose a payment: paid → marked paid (with the merchant's notification); closed at Alipay →
 * closed; past its window and not paid → closed at Alipay (alipay.trade.close), then here. Each order is asked about a
 * minute after creation, then at most once a minute, and once more at the end of its window (retried a minute apart
 * when Alipay does not answer); at most BATCH orders per run.
 */
export async function pollPendingAlipayOrders(db: Database, now: Date, options: { config?: AlipayConfig; log?: (line: string) => void } = {}): Promise<PollSummary> {
  const config = options.config ?? alipayConfig();
  // Every pending ALIPAY order carries its next check time, never later than its window's end while the window is
  // open: the due ones, earliest first, are an index probe (orders_pending_check_idx).
  const due = await db
    .select()
    .from(orders)
    .where(and(eq(orders.channel, 'ALIPAY'), eq(orders.status, 'pending'), lte(orders.upstreamCheckAfter, now)))
    .orderBy(asc(orders.upstreamCheckAfter))
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
