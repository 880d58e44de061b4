/**
 * The incident of a merchant whose endpoint accepts connections and never answers while its notifications pile up:
 * one worker process, the hanging merchant's notifications due, and another merchant paid at a steady pace whose
 * receiver answers at once. Paid→delivered is timed by the bench itself: its clock before the payment is committed,
 * and when the fast receiver reads the notification. The baseline is the same run with no hanging notification.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../lib/db/client';
import { createMerchant } from '../lib/merchants/merchants';
import { markAllPaid, markPaid, seedPendingOrders, startReceiver, startWorker, stopWorker } from './notify-fixtures';

const HANGING_DUE = [0, 100, 1_000];
const FAST_ORDERS = Number(process.env.BENCH_NOTIFY_FAST_ORDERS ?? 250);
/** 25 payments a second for 10 s: past the first 10 s timeouts of the hanging attempts. */
const FAST_PACE_MS = 40;
const FAST_WAIT_MS = Number(process.env.BENCH_NOTIFY_FAST_WAIT_MS ?? 120_000);

const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When the condition held (bench clock), or undefined when it did not within the time. */
async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) return undefined;
    await sleep(10);
  }
  return clock();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

export interface DeadDestinationResult {
  hangingDue: number;
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  hangingAttempts: number;
}

export async function measureDeadDestination(db: Database, databaseUrl: string): Promise<DeadDestinationResult[]> {
  const { merchant: hangingMerchant } = await createMerchant(db, { name: 'Bench merchant, endpoint hangs', orderPermission: true });
  const { merchant: fastMerchant } = await createMerchant(db, { name: 'Bench merchant, answers at once', orderPermission: true });
  const results: DeadDestinationResult[] = [];
  for (const hangingDue of HANGING_DUE) {
    // New receivers (new ports) each run: each starts with a closed circuit for both destinations.
    const hanging = await startReceiver({ hanging: true });
    const fast = await startReceiver();
    const hangingOrders = await seedPendingOrders(db, hangingMerchant.id, hanging.url, `dead${hangingDue}-hanging`, hangingDue);
    await markAllPaid(db, hangingOrders.map((order) => order.id));
    const fastOrders = await seedPendingOrders(db, fastMerchant.id, fast.url, `dead${hangingDue}-fast`, FAST_ORDERS);

    const worker = await startWorker(databaseUrl);
    try {
      if ((await waitUntil(() => hanging.received() >= Math.min(hangingDue, 4), 30_000)) === undefined) throw new Error('bench:notify: the hanging endpoint got no attempt');
      const paidAt = new Map<string, number>();
      for (const order of fastOrders) {
        paidAt.set(order.merchantOrderNo, clock());
        await markPaid(db, order.id);
        await sleep(FAST_PACE_MS);
      }
      // A notification still missing after the wait counts with the time waited: the percentiles are then lower bounds.
      const waitedUntil = (await waitUntil(() => fast.arrivedAt.size === FAST_ORDERS, FAST_WAIT_MS)) ?? clock();
      const latencies = [...paidAt].map(([merchantOrderNo, at]) => (fast.arrivedAt.get(merchantOrderNo) ?? waitedUntil) - at).sort((a, b) => a - b);
      results.push({
        hangingDue,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: latencies.at(-1)!,
        delivered: fast.arrivedAt.size,
        hangingAttempts: hanging.received(),
      });
    } finally {
      hanging.close();
      fast.close();
      await stopWorker(worker);
      await db.execute(sql`UPDATE notifications SET status = 'superseded', lease_owner = NULL, lease_until = NULL WHERE status = 'pending'`);
    }
  }
  return results;
}

export function printDeadDestination(results: DeadDestinationResult[]) {
  console.log(
    `\none merchant's endpoint hangs (accepts, never answers; 10 s timeout), another answers at once: ${FAST_ORDERS} payments of the fast one, 1 every ${FAST_PACE_MS} ms, 1 worker process`,
  );
  console.log('hanging notifications due | fast merchant paid→delivered p50 |      p99 |      max | delivered | attempts at the hanging endpoint');
  // Missing notifications count with the time waited (FAST_WAIT_MS), so a row with fewer delivered is a lower bound.
  for (const r of results) {
    console.log(
      `${String(r.hangingDue).padStart(25)} | ${r.p50.toFixed(1).padStart(30)} ms | ${r.p99.toFixed(1).padStart(5)} ms | ${r.max.toFixed(0).padStart(5)} ms | ${String(r.delivered).padStart(9)} | ${r.hangingAttempts}`,
    );
  }
}
