import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { createDatabase, getDb } from '../db/client';
import { notificationTestBed } from '../../test/notify-receiver';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { waitFor } from '../../test/wait-for';
import { NotificationWorker } from './notification-worker';
import { notificationFieldsOf } from '../channels/index';


const bed = notificationTestBed({ isolateEachTest: true });

describe('workers on one PostgreSQL', () => {
  it('two workers racing deliver each notification exactly once per attempt', async () => {
    const orders = [];
    for (let index = 0; index < 120; index += 1) orders.push(await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url));
    const now = new Date();
    await Promise.all(orders.map((order) => payOrder(order.id, now)));

    // Separate pools, as two processes would have; both claim at once until nothing is due.
    const pools = [createDatabase(process.env.DATABASE_URL!, 8), createDatabase(process.env.DATABASE_URL!, 8)];
    const workers = pools.map((db) => new NotificationWorker({ db, channelFields: notificationFieldsOf, clock: new ManualClock(now), concurrency: 8 }));
    await Promise.all(
      workers.map(async (worker) => {
        while ((await worker.runOnce()) > 0);
      }),
    );
    await Promise.all(pools.map((db) => db.$client.end()));

    const deliveries = new Map<string, number>();
    for (const { form } of bed.receiver.received) deliveries.set(form.merchantOrderNo!, (deliveries.get(form.merchantOrderNo!) ?? 0) + 1);
    expect(deliveries.size).toBe(120);
    expect([...deliveries.values()].every((count) => count === 1)).toBe(true);

    const { rows } = await getDb().execute<{ attempts: number; workers: number; delivered: number }>(sql`
      SELECT count(*)::int AS attempts, count(DISTINCT a.worker_id)::int AS workers,
             count(*) FILTER (WHERE n.status = 'delivered')::int AS delivered
      FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
      WHERE n.order_id = ANY(${sql.raw(`ARRAY[${orders.map((order) => order.id).join(',')}]::bigint[]`)})`);
    expect(rows[0]).toEqual({ attempts: 120, workers: 2, delivered: 120 });
  });

  it('a worker killed mid-delivery leaves the notification deliverable by another', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await payOrder(order.id, new Date());
    bed.receiver.answer(() => undefined); // hold the first attempt open

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/notification-worker-process.ts'], {
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await waitFor(() => bed.receiver.received.some((entry) => entry.form.merchantOrderNo === order.merchantOrderNo), `the notification of ${order.merchantOrderNo}`);
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((resolve) => child.once('exit', resolve));

    const { rows: held } = await getDb().execute<{ status: string; lease_owner: string | null; lease_until: string }>(
      sql`SELECT status, lease_owner, lease_until FROM notifications WHERE order_id = ${order.id}`,
    );
    expect(held[0]).toMatchObject({ status: 'pending' });
    expect(held[0]!.lease_owner).not.toBeNull();

    bed.receiver.answer((_received, res) => res.end('success'));
    const clock = new ManualClock(new Date());
    const survivor = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock });
    expect(await survivor.runOnce(), 'nothing to claim while the dead worker’s lease holds').toBe(0);
    clock.set(new Date(new Date(held[0]!.lease_until).getTime() + 1));
    expect(await survivor.runOnce()).toBe(1);

    const { rows } = await getDb().execute<{ attempt_no: number; outcome: string }>(sql`
      SELECT a.attempt_no, a.outcome FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
      WHERE n.order_id = ${order.id} ORDER BY a.attempt_no`);
    expect(rows).toEqual([
      { attempt_no: 1, outcome: 'abandoned' },
      { attempt_no: 2, outcome: 'acknowledged' },
    ]);
  });

  it('stop() finishes the attempt in flight before returning', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await payOrder(order.id, new Date());
    bed.receiver.answer((_received, res) => setTimeout(() => res.end('ok'), 300));
    const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, pollMs: 50 });
    await worker.start();
    await waitFor(() => bed.receiver.received.length === 1, 'the one notification');
    await worker.stop();
    const { rows } = await getDb().execute<{ status: string }>(sql`SELECT status FROM notifications WHERE order_id = ${order.id}`);
    expect(rows[0]!.status).toBe('delivered');
  });
});
