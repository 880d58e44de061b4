import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, type OrderRow } from '../../db/schema';
import { channelPollerJob } from '../poller/channel-poller-job';
import { closePendingOrder, closeWhenUnansweredTooLong } from '../poller/close-pending-order';
import { pollConcurrently, type PollOutcome, type PollSummary } from '../poller/poll-concurrently';
import { settleYhtPayment } from './settle-payment';
import { queryYhtPayment, YhtUpstreamError, type YhtQueryResult } from './client';
import { yhtConfig, YhtNotConfigured, type YhtConfig } from './config';
import { yhtNotices } from './notices';

export { CLOSE_WITHOUT_ANSWER_AFTER_MS } from '../poller/close-pending-order';
export type { PollSummary } from '../poller/poll-concurrently';
const BATCH = 200;
const CONCURRENCY = 8;

async function settle(db: Database, order: OrderRow, upstream: YhtQueryResult, now: Date): Promise<PollOutcome> {
  const windowEnded = order.expiresAt.getTime() <= now.getTime();
  if (upstream.found && upstream.status === 'SUCCESS') return settleYhtPayment(db, order, upstream, now, 'payment found by the poller (no callback had arrived)');
  const cannotBePaid = upstream.found && upstream.status === 'CLOSED';
  if (windowEnded || cannotBePaid) return (await closePendingOrder(db, yhtNotices, order, now)) ? 'closed' : 'pending';
  return 'pending';
}

/**
 * Asks the upstream about every pending YHT order, so that a lost callback does not lose a payment: a paid order is
 * marked paid (with its notification), an order past its window or closed upstream is closed. When the upstream
 * cannot be asked, the order stays pending until CLOSE_WITHOUT_ANSWER_AFTER_MS past its window.
 */
export async function pollPendingYhtOrders(
  db: Database,
  now: Date,
  options: { config?: YhtConfig; log?: (line: string) => void } = {},
): Promise<PollSummary> {
  const config = options.config ?? yhtConfig();
  const pending = await db
    .select()
    .from(orders)
    .where(and(eq(orders.channel, 'YHT'), eq(orders.status, 'pending')))
    .orderBy(asc(orders.expiresAt))
    .limit(BATCH);
  return pollConcurrently(pending, CONCURRENCY, async (order) => {
    try {
      return await settle(db, order, await queryYhtPayment(config, order.orderNo), now);
    } catch (error) {
      if (!(error instanceof YhtUpstreamError)) throw error;
      options.log?.(`yht: query ${order.orderNo} failed: ${error.message}`);
      return closeWhenUnansweredTooLong(db, yhtNotices, order, now);
    }
  });
}

export const yhtPollerJob = channelPollerJob({
  channel: 'yht',
  interval: { envName: 'YHT_POLL_INTERVAL_MS', defaultMs: 30_000 },
  config: yhtConfig,
  notConfigured: YhtNotConfigured,
  poll: pollPendingYhtOrders,
  failedLabel: 'not answered',
});
