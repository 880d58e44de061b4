import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { cliEntryPoint, repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { aMerchant, receivingAddresses } from '../test/factories';
import { startMerchantReceiver } from '../test/beds/merchant-receiver';
import { aPendingUsdtOrder, payOrder } from '../test/paid-orders';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy';

/**
 * `npm run worker` while its database goes away, for real: the worker reaches PostgreSQL through a TCP proxy that is
 * cut (refusing) and restored, and is finally killed with SIGKILL. It must stay alive through the cut (liveness 200,
 * readiness 503 naming the database), subscribe to the queue again after it (LISTEN, with a catch-up read), and deliver
 * within 2 s of the database's return; a notification queued while it was cut off is delivered too.
 */
let proxy: TcpProxy;
let worker: ChildProcess;
let output = '';
let probeBase: string;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;

async function probe(path: string): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${probeBase}${path}`, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function paidOrder(): Promise<string> {
  const order = await aPendingUsdtOrder(merchant.id, receiver.notifyUrl);
  await payOrder(order.id, new Date());
  return order.orderNo;
}

const delivered = (orderNo: string) => receiver.received.some((entry) => entry.form.orderNo === orderNo);

/** The worker's sessions carry this name, so that the test can tell when the killed worker's last one has ended. */
const WORKER_APPLICATION_NAME = 'worker-outage-test';

function workerDatabaseUrl(): string {
  const url = new URL(proxy.url(process.env.DATABASE_URL!));
  url.searchParams.set('application_name', WORKER_APPLICATION_NAME);
  return url.toString();
}

async function workerSessions(): Promise<number> {
  const { rows } = await getDb().execute<{ count: number }>(sql`
    SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = ${WORKER_APPLICATION_NAME}`);
  return rows[0]!.count;
}

async function listenSessions(): Promise<number> {
  const { rows } = await getDb().execute<{ count: number }>(sql`
    SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`);
  return rows[0]!.count;
}

beforeAll(async () => {
  merchant = await aMerchant();
  await receivingAddresses(2);
  receiver = await startMerchantReceiver(merchant.appSecret);
  const target = new URL(process.env.DATABASE_URL!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  worker = spawn(process.execPath, [cliEntryPoint('worker')], {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATABASE_URL: workerDatabaseUrl(),
      APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET,
      NOTIFY_ALLOW_PRIVATE_NETWORKS: 'true',
      TRONGRID_SELF_HOSTED: 'true',
      TRONGRID_BASE_URLS: 'http://127.0.0.1:9',
      WORKER_HEALTH_PORT: '0',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  worker.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await waitFor(() => output.includes('workers: notification delivery running') && /worker probes: /.test(output), 20_000);
  probeBase = /worker probes: (http:\/\/[\d.]+:\d+)\/healthz/.exec(output)![1]!;
});

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until || worker.exitCode !== null) throw new Error(`the worker did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(async () => {
  if (worker.exitCode === null) worker.kill('SIGKILL');
  await receiver.close();
  await proxy.close();
});

describe('npm run worker through a database outage', () => {
  it('stays alive through the cut, reports it on /readyz, listens again after it and delivers within 2 s of the return', async () => {
    const before = await paidOrder();
    await expect.poll(() => delivered(before), { timeout: 10_000, interval: 20 }).toBe(true);
    await expect.poll(listenSessions, { timeout: 5_000, interval: 50 }).toBe(1);
    expect((await probe('/readyz')).body.checks.database).toBe('ok');

    proxy.cut('refuse');
    const duringCut = await paidOrder(); // queued while the worker cannot reach the database (nobody hears the NOTIFY)
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(worker.exitCode).toBeNull();
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    const unready = await probe('/readyz');
    expect(unready.status).toBe(503);
    expect(unready.body.failed).toContain('database');
    expect(delivered(duringCut)).toBe(false);

    proxy.restore();
    const restoredAt = Date.now();
    await expect.poll(() => delivered(duringCut), { timeout: 5_000, interval: 20 }).toBe(true);
    expect(Date.now() - restoredAt).toBeLessThan(2_000);
    await expect.poll(async () => (await probe('/readyz')).body.checks?.database, { timeout: 2_000, interval: 50 }).toBe('ok');
    await expect.poll(listenSessions, { timeout: 3_000, interval: 50 }).toBe(1); // subscribed again
    const after = await paidOrder();
    await expect.poll(() => delivered(after), { timeout: 2_000, interval: 20 }).toBe(true);
    expect(worker.exitCode).toBeNull();
    expect(output).toContain('notifications: listener lost');
    expect(output).toContain('notifications: listener back');
    expect(output).not.toMatch(/Connection terminated unexpectedly\n\s+at /); // no stack: nothing reached the process
    expect(output).not.toMatch(/SELECT|INSERT|params:/);
  });

  it('is killed with SIGKILL and nothing it had claimed is lost: another worker delivers it once the lease ends', async () => {
    receiver.answer((_received, res) => setTimeout(() => res.end('success'), 400));
    const orders = await Promise.all(Array.from({ length: 6 }, () => paidOrder()));
    await expect.poll(() => receiver.received.filter((entry) => orders.includes(entry.form.orderNo!)).length, { timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
    expect(await workerSessions()).toBeGreaterThan(0);
    worker.kill('SIGKILL');
    await new Promise((resolve) => worker.once('exit', resolve));
    // A claim the worker had sent still runs and commits its leases after the process is gone; its session ends
    // only then. Shortening the leases before that would miss the rows it is about to lease.
    await expect.poll(workerSessions, { timeout: 10_000, interval: 20 }).toBe(0);
    // The claims of the killed worker hold until their lease ends; shorten it here rather than wait the minute.
    await getDb().execute(sql`UPDATE notifications SET lease_until = now() WHERE status = 'pending' AND lease_until > now()`);
    receiver.answer((_received, res) => res.end('success'));
    const { NotificationWorker } = await import('../lib/notifications/notification-worker');
    const { notificationFieldsOf } = await import('../lib/channels');
    const second = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf });
    const statuses = async () =>
      (
        await getDb().execute<{ status: string; count: number }>(sql`
          SELECT n.status, count(*)::int AS count FROM notifications n JOIN orders o ON o.id = n.order_id
          WHERE o.order_no IN (${sql.join(orders.map((orderNo) => sql`${orderNo}`), sql`, `)}) GROUP BY n.status`)
      ).rows;
    await second.start();
    try {
      await expect.poll(() => orders.every(delivered), { timeout: 10_000, interval: 20 }).toBe(true);
      // The receiver's answer comes before the worker records it: the last delivery is written a moment later.
      await expect.poll(statuses, { timeout: 10_000, interval: 20 }).toEqual([{ status: 'delivered', count: 6 }]);
    } finally {
      await second.stop();
    }
  });
});
