/**
 * npm run bench:notify — 10,000 paid orders, their notifications delivered to a local receiver by 1 and then by
 * 2 worker processes (`scripts/worker.ts`) on PostgreSQL. Prints notifications/s and p50/p99 from paid to the
 * first attempt. Uses DATABASE_URL's server when set, else the embedded server; works in a scratch database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../lib/db/client';
import { resolveDatabase } from '../lib/db/connect';
import { createBenchDatabase, dropBenchDatabase } from './fixtures';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { markOrderPaid } from '../lib/orders/mark-order-paid';

const ORDERS = Number(process.env.BENCH_NOTIFY_ORDERS ?? 10_000);
const PAY_CONCURRENCY = 16;

async function startReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end('success');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, received: () => received, close: () => server.close() };
}

/** Pending orders inserted in bulk: the benchmark measures notifications, not order creation. */
async function seedPendingOrders(db: Database, merchantId: number, notifyUrl: string, run: string): Promise<number[]> {
  const { rows } = await db.execute<{ id: string }>(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor,
                        chain_type, notify_url, attach, pay_token, expires_at)
    SELECT 'B' || ${run} || '-' || g, ${merchantId}, 'bench-' || ${run} || '-' || g, 'USDT', 'USDT', 100 + g, 100 + g,
           '1', ${notifyUrl}, 'bench', md5(random()::text) || g, now() + interval '1 day'
    FROM generate_series(1, ${ORDERS}) AS g
    RETURNING id`);
  return rows.map((row) => Number(row.id));
}

function startWorker(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NOTIFY_ALLOW_PRIVATE_NETWORKS: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      // keep reading: a worker's log must never block on a full pipe
      if (chunk.toString().includes('notification delivery running')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function stopWorker(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function markAllPaid(db: Database, orderIds: number[]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: PAY_CONCURRENCY }, async () => {
      while (next < orderIds.length) {
        const orderId = orderIds[next++]!;
        await db.transaction((tx) => markOrderPaid(tx as unknown as Database, { orderId, via: 'bench', paidAt: new Date(), tradeNo: `tx${orderId}` }));
      }
    }),
  );
}

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
  const backlog = await seedPendingOrders(db, merchantId, notifyUrl, `${workers}w-backlog`);
  await markAllPaid(db, backlog);
  const drainStarted = performance.now();
  let children = await Promise.all(Array.from({ length: workers }, () => startWorker(databaseUrl)));
  await waitUntilDelivered(db, backlog);
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const drainAttempts = await firstAttemptLatency(db, backlog);
  await Promise.all(children.map(stopWorker));

  const live = await seedPendingOrders(db, merchantId, notifyUrl, `${workers}w-live`);
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
} finally {
  receiver.close();
  await db.$client.end();
  await dropBenchDatabase(serverUrl, databaseName);
  if (target.embedded?.startedHere) await target.embedded.stop();
}
