import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, upstreamCredentials, type OrderRow } from '../../db/schema';
import { usableCredentialOf } from '../../credentials/find-usable-credential';
import { isDomainError, upstreamFailure } from '../../errors/domain-error';
import { channelPollerJob } from '../poller/channel-poller-job';
import { closePendingOrder, closeWhenUnansweredTooLong } from '../poller/close-pending-order';
import { pollConcurrently, type PollOutcome, type PollSummary } from '../poller/poll-concurrently';
import { recordPollAnomalyOnce } from '../poller/record-poll-anomaly';
import { settleWechatPayment } from './settle-payment';
import type { WechatAccount } from './account';
import { wechatAccountFor } from './platform-certificates';
import { closeByOutTradeNo, queryByOutTradeNo, WechatUpstreamError, type WechatQueryResult } from './client';
import { wechatConfig, WechatNotConfigured, type WechatConfig } from './config';
import { wechatNotices } from './notices';

export { CLOSE_WITHOUT_ANSWER_AFTER_MS } from '../poller/close-pending-order';
export type { PollSummary } from '../poller/poll-concurrently';
/** New orders are left to their notification this long before the poller asks (the payer is scanning). */
export const FIRST_CHECK_AFTER_MS = 15_000;
const BATCH = 200;
const CONCURRENCY = 8;

/** Past its window: closed at WeChat first (so the payer can no longer pay), then here. */
async function closeBothSides(db: Database, config: WechatConfig, account: WechatAccount, order: OrderRow, upstreamExists: boolean, now: Date): Promise<PollOutcome> {
  if (upstreamExists) {
    try {
      await closeByOutTradeNo(config, account, order.orderNo);
    } catch (error) {
      // ORDERPAID: paid in the meantime; the next run's query finds it. Anything else: try again next run.
      if (!(error instanceof WechatUpstreamError) || error.details.code !== 'ORDER_NOT_EXIST') throw error;
    }
  }
  return (await closePendingOrder(db, wechatNotices, order, now)) ? 'closed' : 'pending';
}

async function settle(db: Database, config: WechatConfig, account: WechatAccount, order: OrderRow, upstream: WechatQueryResult, now: Date): Promise<PollOutcome> {
  const windowEnded = order.expiresAt.getTime() <= now.getTime();
  if (upstream.found && upstream.transaction.trade_state === 'SUCCESS') return settleWechatPayment(db, account, order, upstream.transaction, now, 'payment found by the poller (no notification had arrived)');
  const state = upstream.found ? upstream.transaction.trade_state : undefined;
  if (state === 'CLOSED' || state === 'REVOKED') return (await closePendingOrder(db, wechatNotices, order, now)) ? 'closed' : 'pending';
  if (state === 'REFUND') {
    await recordPollAnomalyOnce(db, {
      channel: 'WECHAT',
      order,
      verdict: 'late_payment',
      detail: 'WeChat reports trade_state REFUND: paid and refunded upstream without a notification here; for the operator',
      now,
    });
    return 'failed';
  }
  if (windowEnded) return closeBothSides(db, config, account, order, upstream.found, now);
  return 'pending';
}

/** The accounts of the orders' credentials (whatever their state now: the orders were made while they were usable). */
async function accountsOf(db: Database, config: WechatConfig, credentialIds: number[], now: Date): Promise<Map<number, WechatAccount | Error>> {
  const accounts = new Map<number, WechatAccount | Error>();
  if (credentialIds.length === 0) return accounts;
  const rows = await db.select().from(upstreamCredentials).where(inArray(upstreamCredentials.id, credentialIds));
  for (const row of rows) {
    try {
      accounts.set(
        row.id,
        await wechatAccountFor(db, usableCredentialOf(row), config, now),
      );
    } catch (error) {
      accounts.set(row.id, error instanceof Error ? error : new Error(String(error)));
    }
  }
  return accounts;
}

/**
 * Asks WeChat about pending WECHAT orders (the contract's scheduled synchronisation), so that a lost notification
 * does not lose a payment: SUCCESS marks the order paid ('wechat-poll', recorded as kind 'query'), CLOSED/REVOKED
 * closes it, an order past its window is closed at WeChat and then here. Orders younger than FIRST_CHECK_AFTER_MS
 * are left to their notification; at most BATCH per run, the nearest expiry first, CONCURRENCY queries at a time.
 */
export async function pollPendingWechatOrders(
  db: Database,
  now: Date,
  options: { config?: WechatConfig; log?: (line: string) => void } = {},
): Promise<PollSummary> {
  const config = options.config ?? wechatConfig();
  const pending = await db
    .select()
    .from(orders)
    .where(and(eq(orders.channel, 'WECHAT'), eq(orders.status, 'pending'), lte(orders.createdAt, new Date(now.getTime() - FIRST_CHECK_AFTER_MS))))
    .orderBy(asc(orders.expiresAt))
    .limit(BATCH);
  const accounts = await accountsOf(db, config, [...new Set(pending.map((order) => order.credentialId).filter((id): id is number => id !== null))], now);
  return pollConcurrently(pending, CONCURRENCY, async (order) => {
    try {
      const account = order.credentialId === null ? undefined : accounts.get(order.credentialId);
      if (!account || account instanceof Error) throw upstreamFailure(`credential ${order.credentialId} cannot be used: ${account?.message ?? 'not found'}`);
      return await settle(db, config, account, order, await queryByOutTradeNo(config, account, order.orderNo), now);
    } catch (error) {
      if (!isDomainError(error, 'upstream_failure')) throw error;
      options.log?.(`wechat: ${order.orderNo}: ${error.message}`);
      return closeWhenUnansweredTooLong(db, wechatNotices, order, now);
    }
  });
}

export const wechatPollerJob = channelPollerJob({
  channel: 'wechat',
  interval: { envName: 'WECHAT_POLL_INTERVAL_MS', defaultMs: 30_000 },
  config: wechatConfig,
  notConfigured: WechatNotConfigured,
  poll: pollPendingWechatOrders,
  failedLabel: 'not settled',
});
