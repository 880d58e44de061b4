import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, upstreamCallbacks, type OrderRow } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { formatMinorUnits } from '../../money/decimal-amount';
import { markOrderPaid } from '../../orders/mark-order-paid';
import type { PeriodicJob } from '../../workers/periodic-job';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';
import { AlipayUpstreamError, queryAlipayTrade, type AlipayQueryResult } from './client';
import { alipayConfig, AlipayNotConfigured, type AlipayConfig } from './config';
import { CLOCK_TOLERANCE_MS } from './receive-notify';

/** A new order is first asked about after this long (the payer is still on the way to Alipay). */
export const FIRST_CHECK_AFTER_MS = 60_000;
/** Then at most once per this long each, and once more when its window ends. */
export const CHECK_SPACING_MS = 60_000;
/** A pending order whose upstream cannot be asked is closed anyway this long after its window (a later payment is recorded as late). */
export const CLOSE_WITHOUT_ANSWER_AFTER_MS = 60 * 60_000;
const BATCH = 100;
const CONCURRENCY = 4;
const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

export interface PollSummary {
  checked: number;
  paid: number;
  closed: number;
  failed: number;
}

async function closeOrder(db: Database, order: OrderRow, now: Date): Promise<boolean> {
  const closed = await db
    .update(orders)
    .set({ status: 'closed', closedAt: now, updatedAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning({ id: orders.id });
  return closed.length > 0;
}

/** The next time this order may be asked about: after the spacing, but no later than the end of its window. */
async function scheduleNextCheck(db: Database, order: OrderRow, now: Date): Promise<void> {
  const next = Math.max(now.getTime() + 1, Math.min(now.getTime() + CHECK_SPACING_MS, order.expiresAt.getTime()));
  const at = now.getTime() >= order.expiresAt.getTime() ? new Date(now.getTime() + CHECK_SPACING_MS) : new Date(next);
  await db.update(orders).set({ upstreamCheckAfter: at }).where(and(eq(orders.id, order.id), eq(orders.status, 'pending')));
}

/** Records an anomaly the poller saw once per order and verdict, so the operator sees it without a row every run. */
async function recordOnce(db: Database, order: OrderRow, verdict: CallbackVerdict, detail: string, now: Date, tradeNo?: string) {
  const [seen] = await db
    .select({ id: upstreamCallbacks.id })
    .from(upstreamCallbacks)
    .where(and(eq(upstreamCallbacks.orderId, order.id), eq(upstreamCallbacks.kind, 'query'), eq(upstreamCallbacks.verdict, verdict)))
    .limit(1);
  if (!seen) await recordUpstreamCallback(db, { channel: 'ALIPAY', kind: 'query', receivedAt: now, outTradeNo: order.orderNo, tradeNo, orderId: order.id, verdict, detail });
}

type Outcome = 'paid' | 'closed' | 'pending' | 'failed';

async function settle(db: Database, order: OrderRow, upstream: AlipayQueryResult, now: Date): Promise<Outcome> {
  const windowEnded = order.expiresAt.getTime() <= now.getTime();
  if (upstream.found && PAID_STATES.has(upstream.status)) {
    if (upstream.amountMinor !== order.payAmountMinor) {
      const reported = upstream.amountMinor === undefined ? 'no amount' : formatMinorUnits(upstream.amountMinor);
      await recordOnce(db, order, 'amount_mismatch', `Alipay reports ${reported} paid`, now, upstream.tradeNo);
      return 'failed';
    }
    const paidAt = upstream.payTime && upstream.payTime.getTime() <= now.getTime() ? upstream.payTime : now;
    if (paidAt.getTime() > order.expiresAt.getTime() + CLOCK_TOLERANCE_MS) {
      await recordOnce(db, order, 'late_payment', `paid at ${paidAt.toISOString()} after the window closed; for the operator`, now, upstream.tradeNo);
      return (await closeOrder(db, order, now)) ? 'closed' : 'pending';
    }
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const marked = await markOrderPaid(tx, { orderId: order.id, via: 'alipay-query', paidAt, tradeNo: upstream.tradeNo || undefined });
      if (!marked.changed) return 'pending';
      await recordUpstreamCallback(tx, {
        channel: 'ALIPAY',
        kind: 'query',
        receivedAt: now,
        outTradeNo: order.orderNo,
        tradeNo: upstream.tradeNo,
        orderId: order.id,
        verdict: 'paid',
        detail: 'payment found by alipay.trade.query (no notification had arrived)',
      });
      return 'paid';
    });
  }
  const cannotBePaid = upstream.found && upstream.status === 'TRADE_CLOSED';
  if (windowEnded || cannotBePaid) return (await closeOrder(db, order, now)) ? 'closed' : 'pending';
  await scheduleNextCheck(db, order, now);
  return 'pending';
}

async function checkOrder(db: Database, config: AlipayConfig, order: OrderRow, now: Date, log?: (line: string) => void): Promise<Outcome> {
  const credential = await findBoundCredential(db, order);
  try {
    if (!credential) throw new AlipayUpstreamError(`order ${order.orderNo} has no credential to ask Alipay with`);
    return await settle(db, order, await queryAlipayTrade(config, credential, order.orderNo), now);
  } catch (error) {
    if (!(error instanceof AlipayUpstreamError)) throw error;
    log?.(`alipay: query ${order.orderNo} failed: ${error.message}`);
    if (order.expiresAt.getTime() + CLOSE_WITHOUT_ANSWER_AFTER_MS <= now.getTime()) return (await closeOrder(db, order, now)) ? 'closed' : 'failed';
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
  const summary: PollSummary = { checked: 0, paid: 0, closed: 0, failed: 0 };
  let next = 0;
  async function lane() {
    while (next < due.length) {
      const order = due[next++]!;
      summary.checked += 1;
      const outcome = await checkOrder(db, config, order, now, options.log);
      if (outcome !== 'pending') summary[outcome] += 1;
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, lane));
  return summary;
}

function pollIntervalMs(): number {
  const configured = Number(process.env.ALIPAY_POLL_INTERVAL_MS ?? 15_000);
  return Number.isFinite(configured) && configured >= 1_000 ? configured : 15_000;
}

export const alipayPollerJob: PeriodicJob = {
  name: 'alipay-poller',
  intervalMs: pollIntervalMs(),
  async run({ db, clock, log }) {
    let config: AlipayConfig;
    try {
      config = alipayConfig();
    } catch (error) {
      if (error instanceof AlipayNotConfigured) return; // the channel is off; submit says so to merchants
      throw error;
    }
    const summary = await pollPendingAlipayOrders(db, clock.now(), { config, log });
    if (summary.paid + summary.closed + summary.failed > 0) {
      log(`alipay: ${summary.checked} pending order(s) checked, ${summary.paid} paid, ${summary.closed} closed, ${summary.failed} not answered`);
    }
  },
};
