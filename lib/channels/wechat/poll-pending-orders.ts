import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { decryptSecret } from '../../crypto/secret-box';
import { orders, upstreamCallbacks, upstreamCredentials, type OrderRow } from '../../db/schema';
import { markOrderPaid } from '../../orders/mark-order-paid';
import type { PeriodicJob } from '../../workers/periodic-job';
import { DirectUpstreamError } from '../direct/direct-channel';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';
import { wechatAccountOf, type WechatAccount } from './account';
import { closeByOutTradeNo, parseWechatTime, queryByOutTradeNo, WechatUpstreamError, type WechatQueryResult } from './client';
import { wechatConfig, WechatNotConfigured, type WechatConfig } from './config';
import { CLOCK_TOLERANCE_MS } from './receive-callback';

/** A pending order whose upstream cannot be asked is closed anyway this long after its window (a later payment is recorded as late). */
export const CLOSE_WITHOUT_ANSWER_AFTER_MS = 60 * 60_000;
/** New orders are left to their notification this long before the poller asks (the payer is scanning). */
export const FIRST_CHECK_AFTER_MS = 15_000;
const BATCH = 200;
const CONCURRENCY = 8;

export interface PollSummary {
  checked: number;
  paid: number;
  closed: number;
  failed: number;
}

type Outcome = 'paid' | 'closed' | 'pending' | 'failed';

async function closeLocally(db: Database, order: OrderRow, now: Date): Promise<boolean> {
  const closed = await db
    .update(orders)
    .set({ status: 'closed', closedAt: now, updatedAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning({ id: orders.id });
  return closed.length > 0;
}

/** Records an anomaly once per order and verdict, so the operator sees it without a row every run. */
async function recordOnce(db: Database, order: OrderRow, verdict: CallbackVerdict, detail: string, now: Date, tradeNo?: string) {
  const [seen] = await db
    .select({ id: upstreamCallbacks.id })
    .from(upstreamCallbacks)
    .where(and(eq(upstreamCallbacks.orderId, order.id), eq(upstreamCallbacks.kind, 'query'), eq(upstreamCallbacks.verdict, verdict)))
    .limit(1);
  if (!seen) await recordUpstreamCallback(db, { channel: 'WECHAT', kind: 'query', receivedAt: now, outTradeNo: order.orderNo, tradeNo, orderId: order.id, verdict, detail });
}

/** Past its window: closed at WeChat first (so the payer can no longer pay), then here. */
async function closeBothSides(db: Database, config: WechatConfig, account: WechatAccount, order: OrderRow, upstreamExists: boolean, now: Date): Promise<Outcome> {
  if (upstreamExists) {
    try {
      await closeByOutTradeNo(config, account, order.orderNo);
    } catch (error) {
      // ORDERPAID: paid in the meantime; the next run's query finds it. Anything else: try again next run.
      if (!(error instanceof WechatUpstreamError) || error.details.code !== 'ORDER_NOT_EXIST') throw error;
    }
  }
  return (await closeLocally(db, order, now)) ? 'closed' : 'pending';
}

async function settle(db: Database, config: WechatConfig, account: WechatAccount, order: OrderRow, upstream: WechatQueryResult, now: Date): Promise<Outcome> {
  const windowEnded = order.expiresAt.getTime() <= now.getTime();
  if (upstream.found && upstream.transaction.trade_state === 'SUCCESS') {
    const transaction = upstream.transaction;
    if (transaction.appid !== account.appId) {
      await recordOnce(db, order, 'wrong_merchant', `query answered appid ${transaction.appid.slice(0, 40)}, not credential ${account.credentialId}'s`, now, transaction.transaction_id);
      return 'failed';
    }
    const total = transaction.amount?.total;
    if (total === undefined || BigInt(total) !== order.payAmountMinor) {
      await recordOnce(db, order, 'amount_mismatch', `WeChat reports amount.total ${String(total)} fen paid, the order is ${order.payAmountMinor} fen`, now, transaction.transaction_id);
      return 'failed';
    }
    const stated = parseWechatTime(transaction.success_time);
    const paidAt = stated && stated.getTime() <= now.getTime() ? stated : now;
    if (paidAt.getTime() > order.expiresAt.getTime() + CLOCK_TOLERANCE_MS) {
      await recordOnce(db, order, 'late_payment', `paid at ${paidAt.toISOString()} after the window closed; for the operator`, now, transaction.transaction_id);
      return (await closeLocally(db, order, now)) ? 'closed' : 'pending';
    }
    return db.transaction(async (trx) => {
      const tx = trx as unknown as Database;
      const marked = await markOrderPaid(tx, { orderId: order.id, via: 'wechat-poll', paidAt, tradeNo: transaction.transaction_id });
      if (!marked.changed) return 'pending';
      await recordUpstreamCallback(tx, {
        channel: 'WECHAT',
        kind: 'query',
        receivedAt: now,
        outTradeNo: order.orderNo,
        tradeNo: transaction.transaction_id,
        orderId: order.id,
        verdict: 'paid',
        detail: 'payment found by the poller (no notification had arrived)',
      });
      return 'paid';
    });
  }
  const state = upstream.found ? upstream.transaction.trade_state : undefined;
  if (state === 'CLOSED' || state === 'REVOKED') return (await closeLocally(db, order, now)) ? 'closed' : 'pending';
  if (state === 'REFUND') {
    await recordOnce(db, order, 'late_payment', 'WeChat reports trade_state REFUND: paid and refunded upstream without a notification here; for the operator', now);
    return 'failed';
  }
  if (windowEnded) return closeBothSides(db, config, account, order, upstream.found, now);
  return 'pending';
}

/** The accounts of the orders' credentials (whatever their state now: the orders were made while they were usable). */
async function accountsOf(db: Database, credentialIds: number[]): Promise<Map<number, WechatAccount | Error>> {
  const accounts = new Map<number, WechatAccount | Error>();
  if (credentialIds.length === 0) return accounts;
  const rows = await db.select().from(upstreamCredentials).where(inArray(upstreamCredentials.id, credentialIds));
  for (const row of rows) {
    try {
      accounts.set(
        row.id,
        wechatAccountOf({
          ...row,
          privateKey: decryptSecret(row.privateKeyEncrypted),
          apiV3Key: row.apiV3KeyEncrypted === null ? null : decryptSecret(row.apiV3KeyEncrypted),
        }),
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
  const accounts = await accountsOf(db, [...new Set(pending.map((order) => order.credentialId).filter((id): id is number => id !== null))]);
  const summary: PollSummary = { checked: 0, paid: 0, closed: 0, failed: 0 };
  let next = 0;
  async function lane() {
    while (next < pending.length) {
      const order = pending[next++]!;
      summary.checked += 1;
      let outcome: Outcome;
      try {
        const account = order.credentialId === null ? undefined : accounts.get(order.credentialId);
        if (!account || account instanceof Error) throw new DirectUpstreamError(`credential ${order.credentialId} cannot be used: ${account?.message ?? 'not found'}`);
        outcome = await settle(db, config, account, order, await queryByOutTradeNo(config, account, order.orderNo), now);
      } catch (error) {
        if (!(error instanceof DirectUpstreamError)) throw error;
        options.log?.(`wechat: ${order.orderNo}: ${error.reason}`);
        const giveUp = order.expiresAt.getTime() + CLOSE_WITHOUT_ANSWER_AFTER_MS <= now.getTime();
        outcome = giveUp && (await closeLocally(db, order, now)) ? 'closed' : 'failed';
      }
      if (outcome !== 'pending') summary[outcome] += 1;
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, lane));
  return summary;
}

function pollIntervalMs(): number {
  const configured = Number(process.env.WECHAT_POLL_INTERVAL_MS ?? 30_000);
  return Number.isFinite(configured) && configured >= 1_000 ? configured : 30_000;
}

export const wechatPollerJob: PeriodicJob = {
  name: 'wechat-poller',
  intervalMs: pollIntervalMs(),
  async run({ db, clock, log }) {
    let config: WechatConfig;
    try {
      config = wechatConfig();
    } catch (error) {
      if (error instanceof WechatNotConfigured) return; // the channel is off; submit says so to merchants
      throw error;
    }
    const summary = await pollPendingWechatOrders(db, clock.now(), { config, log });
    if (summary.paid + summary.closed + summary.failed > 0) {
      log(`wechat: ${summary.checked} pending order(s) checked, ${summary.paid} paid, ${summary.closed} closed, ${summary.failed} not settled`);
    }
  },
};
