/**
 * npm run bench:notify — 10,000 paid orders, their notifications delivered to a local receiver by 1 and then by
 * 2 worker processes (`scripts/worker.ts`) on PostgreSQL. Prints notifications/s and p50/p99 from paid to the
 * first attempt. Then a merchant whose endpoint hangs: another merchant's paid→delivered p50/p99 with 0, 100 and
 * 1,000 of the hanging one's notifications due. Uses DATABASE_URL's server when set, else the embedded server;
 * works in a scratch database.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../lib/db/client';
import { resolveDatabase } from '../lib/db/connect';
import { createBenchDatabase, dropBenchDatabase } from './fixtures';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { measureDeadDestination, printDeadDestination } from './notify-dead-destination';
import { markAllPaid, PAY_CONCURRENCY, seedPendingOrders, startReceiver, startWorker, stopWorker } from './notify-fixtures';

const ORDERS = Number(process.env.BENCH_NOTIFY_ORDERS ?? 10_000);

async function waitUntilDelivered(db: Database, orderIds: number[]) {
  const idList = sql.raw(`ARRAY[${orderIds.join(',')}]::bigint[]`);
  for (;;) {
    const { rows } = await db.execute<{ delivered: number }>(
      sql`SELECT count(*)::int AS delivered FROM notifications WHERE status = 'delivered' AND order_id = ANY(${idList})`,
    );
    if (rows[0]!.delivered >= orderIds.length) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function firstAttemptLatency(db: Database, orderIds: number[]) {
  const { rows } = await db.execute<{ p50: number; p99: number; max: number; attempts: number; workers_seen: number }>(sql`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY latency) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY latency) AS p99,
           max(latency) AS max, count(*)::int AS attempts, count(DISTINCT worker_id)::int AS workers_seen
    FROM (
      SELECT extract(epoch FROM (a.started_at - o.paid_at)) * 1000 AS latency, a.worker_id
      FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id JOIN orders o ON o.id = n.order_id
      WHERE a.attempt_no = 1 AND o.id = ANY(${sql.raw(`ARRAY[${orderIds.join(',')}]::bigint[]`)})
    ) AS first_attempts`);
  return rows[0]!;
}

/**
 * Two measurements per worker count: the drain rate of a backlog of 10,000 paid orders (workers started after
 * they were all paid), and the paid→first-attempt latency while 10,000 orders are being paid with workers running.
 */
async function measure(db: Database, databaseUrl: string, merchantId: number, notifyUrl: string, workers: number) {
  const backlog = (await seedPendingOrders(db, merchantId, notifyUrl, `${workers}w-backlog`, ORDERS)).map((order) => order.id);
  await markAllPaid(db, backlog);
  const drainStarted = performance.now();
  let children = await Promise.all(Array.from({ length: workers }, () => startWorker(databaseUrl)));
  await waitUntilDelivered(db, backlog);
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const drainAttempts = await firstAttemptLatency(db, backlog);
  await Promise.all(children.map(stopWorker));

  const live = (await seedPendingOrders(db, merchantId, notifyUrl, `${workers}w-live`, ORDERS)).map((order) => order.id);
  children = await Promise.all(Array.from({ length: workers }, () => startWorker(databaseUrl)));
  const payStarted = performance.now();
  await markAllPaid(db, live);
  const paySeconds = (performance.now() - payStarted) / 1000;
  await waitUntilDelivered(db, live);
  await Promise.all(children.map(stopWorker));
  const latency = await firstAttemptLatency(db, live);
  return { workers, drainSeconds, drainRate: backlog.length / drainSeconds, drainWorkersSeen: drainAttempts.workers_seen, payRate: live.length / paySeconds, ...latency };
}

const target = await resolveDatabase({ migrate: false });
const serverUrl = target.embedded?.serverUrl ?? target.url;
const databaseName = `bench_notify_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const databaseUrl = await createBenchDatabase(serverUrl, databaseName);

const receiver = await startReceiver();
const db = createDatabase(databaseUrl, PAY_CONCURRENCY + 2);
try {
  await applyMigrations(databaseUrl);
  const { merchant } = await createMerchant(db, { name: 'Bench merchant', orderPermission: true });
  const results = [];
  for (const workers of [1, 2]) {
    console.error(`bench:notify: ${ORDERS} paid orders, ${workers} worker process(es)…`);
    results.push(await measure(db, databaseUrl, merchant.id, receiver.url, workers));
  }
  console.log(`\nnotifications: ${ORDERS} paid orders per run, receiver on loopback answering "success", PostgreSQL ${target.embedded ? 'embedded' : 'server'}`);
  console.log('workers | backlog drained in | notifications/s | live: paid/s | paid→1st attempt p50 |      p99 |      max | first attempts');
  for (const r of results) {
    console.log(
      `${String(r.workers).padStart(7)} | ${r.drainSeconds.toFixed(2).padStart(16)} s | ${r.drainRate.toFixed(0).padStart(15)} | ${r.payRate.toFixed(0).padStart(12)} | ${Number(r.p50).toFixed(1).padStart(17)} ms | ${Number(r.p99).toFixed(1).padStart(5)} ms | ${Number(r.max).toFixed(0).padStart(5)} ms | ${r.attempts} (by ${r.workers_seen} worker${r.workers_seen === 1 ? '' : 's'})`,
    );
  }
  console.log(`received by the merchant: ${receiver.received()} (expected ${ORDERS * 4}: exactly one per order)`);

  console.error('bench:notify: a merchant whose endpoint hangs, another whose answers at once…');
  printDeadDestination(await measureDeadDestination(db, databaseUrl));
} finally {
  receiver.close();
  await db.$client.end();
  await dropBenchDatabase(serverUrl, databaseName);
  if (target.embedded?.startedHere) await target.embedded.stop();
}
