import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, upstreamCallbacks, type OrderRow } from '../../db/schema';
import { formatMinorUnits } from '../../money/decimal-amount';
import { markOrderPaid } from '../../orders/mark-order-paid';
import type { PeriodicJob } from '../../workers/periodic-job';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';
import { queryYhtPayment, YhtUpstreamError, type YhtQueryResult } from './client';
import { CLOCK_TOLERANCE_MS } from './receive-callback';
import { yhtConfig, YhtNotConfigured, type YhtConfig } from './config';

/** A pending order whose upstream cannot be asked is closed anyway this long after its window (a later payment is recorded as late). */
export const CLOSE_WITHOUT_ANSWER_AFTER_MS = 60 * 60_000;
const BATCH = 200;
const CONCURRENCY = 8;

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

/** Records an anomaly the poller saw once per order and verdict, so the operator sees it without a row every run. */
async function recordOnce(db: Database, order: OrderRow, verdict: CallbackVerdict, detail: string, now: Date, tradeNo?: string) {
  const [seen] = await db
    .select({ id: upstreamCallbacks.id })
    .from(upstreamCallbacks)
    .where(and(eq(upstreamCallbacks.orderId, order.id), eq(upstreamCallbacks.kind, 'query'), eq(upstreamCallbacks.verdict, verdict)))
    .limit(1);
  if (!seen) await recordUpstreamCallback(db, { channel: 'YHT', kind: 'query', receivedAt: now, outTradeNo: order.orderNo, tradeNo, orderId: order.id, verdict, detail });
}

type Outcome = 'paid' | 'closed' | 'pending' | 'failed';

async function settle(db: Database, order: OrderRow, upstream: YhtQueryResult, now: Date): Promise<Outcome> {
  const windowEnded = order.expiresAt.getTime() <= now.getTime();
  if (upstream.found && upstream.status === 'SUCCESS') {
    if (upstream.amountMinor !== order.payAmountMinor) {
      await recordOnce(db, order, 'amount_mismatch', `upstream reports ${formatMinorUnits(upstream.amountMinor)} paid`, now, upstream.tradeNo);
      return 'failed';
    }
    const paidAt = upstream.payTime && upstream.payTime.getTime() <= now.getTime() ? upstream.payTime : now;
    if (paidAt.getTime() > order.expiresAt.getTime() + CLOCK_TOLERANCE_MS) {
      await recordOnce(db, order, 'late_payment', `paid at ${paidAt.toISOString()} after the window closed; for the operator`, now, upstream.tradeNo);
      return (await closeOrder(db, order, now)) ? 'closed' : 'pending';
    }
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const marked = await markOrderPaid(tx, { orderId: order.id, via: 'yht-query', paidAt, tradeNo: upstream.tradeNo || undefined });
      if (!marked.changed) return 'pending';
      await recordUpstreamCallback(tx, {
        channel: 'YHT',
        kind: 'query',
        receivedAt: now,
        outTradeNo: order.orderNo,
        tradeNo: upstream.tradeNo,
        orderId: order.id,
        verdict: 'paid',
        detail: 'payment found by the poller (no callback had arrived)',
      });
      return 'paid';
    });
  }
  const cannotBePaid = upstream.found && upstream.status === 'CLOSED';
  if (windowEnded || cannotBePaid) return (await closeOrder(db, order, now)) ? 'closed' : 'pending';
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
  const summary: PollSummary = { checked: 0, paid: 0, closed: 0, failed: 0 };
  let next = 0;
  async function lane() {
    while (next < pending.length) {
      const order = pending[next++]!;
      summary.checked += 1;
      let outcome: Outcome;
      try {
        outcome = await settle(db, order, await queryYhtPayment(config, order.orderNo), now);
      } catch (error) {
        if (!(error instanceof YhtUpstreamError)) throw error;
        options.log?.(`yht: query ${order.orderNo} failed: ${error.message}`);
        const giveUp = order.expiresAt.getTime() + CLOSE_WITHOUT_ANSWER_AFTER_MS <= now.getTime();
        outcome = giveUp && (await closeOrder(db, order, now)) ? 'closed' : 'failed';
      }
      if (outcome === 'paid' || outcome === 'closed' || outcome === 'failed') summary[outcome] += 1;
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, lane));
  return summary;
}

function pollIntervalMs(): number {
  const configured = Number(process.env.YHT_POLL_INTERVAL_MS ?? 30_000);
  return Number.isFinite(configured) && configured >= 1_000 ? configured : 30_000;
}

export const yhtPollerJob: PeriodicJob = {
  name: 'yht-poller',
  intervalMs: pollIntervalMs(),
  async run({ db, clock, log }) {
    let config: YhtConfig;
    try {
      config = yhtConfig();
    } catch (error) {
      if (error instanceof YhtNotConfigured) return; // the channel is off; submit says so to merchants
      throw error;
    }
    const summary = await pollPendingYhtOrders(db, clock.now(), { config, log });
    if (summary.paid + summary.closed + summary.failed > 0) {
      log(`yht: ${summary.checked} pending order(s) checked, ${summary.paid} paid, ${summary.closed} closed, ${summary.failed} not answered`);
    }
  },
};
