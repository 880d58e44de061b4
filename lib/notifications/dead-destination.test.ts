import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, getDb } from '../db/client';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { manyPaidOrders, manyPendingOrders, payOrder } from '../../test/paid-orders';
import { waitFor } from '../../test/wait-for';
import { destinationOf } from './destination';
import { NotificationWorker } from './notification-worker';
import { notificationFieldsOf } from '../channels/index';

/**
 * The incident this guards against: one merchant's server accepts connections and never answers while its sale's
 * notifications pile up; every other merchant's notifications must still arrive at once. Real receivers on
 * loopback, two worker processes' worth of workers (own pools), the default timeouts (1 s connect, 10 s answer).
 */
const HANGING_DUE = 1_000;
const FAST_ORDERS = 20;

let hanging: Awaited<ReturnType<typeof startMerchantReceiver>>;
let fast: Awaited<ReturnType<typeof startMerchantReceiver>>;
let hangingMerchant: Awaited<ReturnType<typeof aMerchant>>;
let fastMerchant: Awaited<ReturnType<typeof aMerchant>>;

beforeAll(async () => {
  [hangingMerchant, fastMerchant] = [await aMerchant(), await aMerchant()];
  await receivingAddresses(1);
  const secrets = new Map([hangingMerchant, fastMerchant].map((merchant) => [merchant.appId, merchant.appSecret]));
  hanging = await startMerchantReceiver((appId) => secrets.get(appId));
  fast = await startMerchantReceiver((appId) => secrets.get(appId));
  hanging.answer(() => undefined); // accepts, reads the request, never answers
});
afterAll(async () => {
  await hanging.close();
  await fast.close();
});

describe('a merchant whose endpoint hangs', () => {
  it('does not delay another merchant: its notifications arrive within 1 s of payment while 1,000 hanging ones are due', async () => {
    const hangingOrders = await manyPaidOrders(hangingMerchant.id, hanging.url, HANGING_DUE, new Date());
    const fastOrders = await manyPendingOrders(fastMerchant.id, fast.url, FAST_ORDERS);
    const arrivedAt = new Map<string, number>();
    fast.answer((received, res) => {
      arrivedAt.set(received.form.merchantOrderNo!, Date.now());
      res.end('success');
    });

    const pools = [createDatabase(process.env.DATABASE_URL!, 4), createDatabase(process.env.DATABASE_URL!, 4)];
    const workers = pools.map((db) => new NotificationWorker({ db, channelFields: notificationFieldsOf, listenUrl: process.env.DATABASE_URL }));
    await Promise.all(workers.map((worker) => worker.start()));
    try {
      // Both workers hold the hanging destination's share of their slots (4 each), and no more.
      await waitFor(() => hanging.received.length >= 8, 'both workers to reach the hanging receiver');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hanging.received).toHaveLength(8);

      const paidAt = new Map<string, number>();
      for (const orderId of fastOrders) {
        const { rows } = await getDb().execute<{ merchant_order_no: string }>(sql`SELECT merchant_order_no FROM orders WHERE id = ${orderId}`);
        paidAt.set(rows[0]!.merchant_order_no, Date.now());
        await payOrder(orderId, new Date());
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await waitFor(() => arrivedAt.size === FAST_ORDERS, 'the fast merchant’s notifications', 10_000);
      const delays = [...paidAt].map(([merchantOrderNo, at]) => arrivedAt.get(merchantOrderNo)! - at);
      expect(Math.max(...delays), `paid → delivered: ${delays.join(', ')} ms`).toBeLessThan(1000);
    } finally {
      // Stop claiming, then drop the hanging connections so the attempts in flight end now, not after 10 s.
      const stopped = Promise.all(workers.map((worker) => worker.stop()));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await hanging.close();
      await stopped;
      await Promise.all(pools.map((db) => db.$client.end()));
    }

    // Exactly once: every fast notification received once, in one acknowledged attempt.
    expect(fast.received).toHaveLength(FAST_ORDERS);
    const fastIds = sql.raw(`ARRAY[${fastOrders.join(',')}]::bigint[]`);
    const { rows: fastRows } = await getDb().execute<{ status: string; attempt_count: number; n: number }>(sql`
      SELECT status, attempt_count, count(*)::int AS n FROM notifications WHERE order_id = ANY(${fastIds}) GROUP BY status, attempt_count`);
    expect(fastRows).toEqual([{ status: 'delivered', attempt_count: 1, n: FAST_ORDERS }]);

    // Lease rules: neither worker ever had more than 4 attempts to the hanging destination in flight, each attempt
    // was made once, and the notifications not attempted kept their whole plan (attempt_count 0).
    const hangingIds = sql.raw(`ARRAY[${hangingOrders.join(',')}]::bigint[]`);
    const { rows: attempts } = await getDb().execute<{ worker_id: string; started_at: string; finished_at: string | null }>(sql`
      SELECT a.worker_id, a.started_at::text, a.finished_at::text FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
      WHERE n.order_id = ANY(${hangingIds})`);
    const inFlightAt = (worker: string, at: number) =>
      attempts.filter((a) => a.worker_id === worker && Date.parse(a.started_at) <= at && (a.finished_at === null || Date.parse(a.finished_at) > at)).length;
    const peak = Object.fromEntries(
      workers.map((worker) => [worker.workerId, Math.max(...attempts.filter((a) => a.worker_id === worker.workerId).map((a) => inFlightAt(worker.workerId, Date.parse(a.started_at))))]),
    );
    expect(peak).toEqual(Object.fromEntries(workers.map((worker) => [worker.workerId, 4])));
    expect(new Set(hanging.received.map((entry) => entry.form.merchantOrderNo)).size).toBe(attempts.length);
    const { rows: untouched } = await getDb().execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM notifications WHERE order_id = ANY(${hangingIds}) AND status = 'pending' AND attempt_count = 0`);
    expect(untouched[0]!.n).toBe(HANGING_DUE - attempts.length);

    // Every one of those attempts went unanswered: the destination's circuit is open and shown failing, and nothing
    // more is claimed for it.
    const { rows: circuit } = await getDb().execute<{ consecutive_failures: number; open: boolean; failing_since: string | null }>(sql`
      SELECT consecutive_failures, open_until > now() AS open, failing_since FROM notification_destinations WHERE destination = ${destinationOf(hanging.url)}`);
    expect(circuit[0]).toMatchObject({ consecutive_failures: attempts.length, open: true });
    expect(circuit[0]!.failing_since).not.toBeNull();
    expect(await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf }).runOnce()).toBe(0);
  });
});
