import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { getDb } from '../db/client';
import { notificationTestBed } from '../../test/notify-receiver';
import { manyPaidOrders } from '../../test/paid-orders';
import { claimDueNotifications } from './claim';
import { openDurationMs } from './circuit-breaker';
import { destinationOf } from './destination';
import { NotificationWorker } from './notification-worker';
import { notificationFieldsOf } from '../channels/index';

const bed = notificationTestBed({ isolateEachTest: true });

function workers(clock: ManualClock, count = 1) {
  return Array.from({ length: count }, () => new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock, timeoutMs: 200 }));
}

async function runAll(list: NotificationWorker[]) {
  const claimed = await Promise.all(list.map((worker) => worker.runOnce()));
  return claimed.reduce((sum, count) => sum + count, 0);
}

async function circuitOf(url: string) {
  const { rows } = await getDb().execute<{ consecutive_failures: number; failing_since: Date | null; open_until: Date | null; probe_until: Date | null }>(
    sql`SELECT consecutive_failures, failing_since, open_until, probe_until FROM notification_destinations WHERE destination = ${destinationOf(url)}`,
  );
  return rows[0];
}

async function notificationsOf(orderIds: number[]) {
  const { rows } = await getDb().execute<{ status: string; attempt_count: number; give_up_at: Date; last_error: string | null }>(
    sql`SELECT status, attempt_count, give_up_at, last_error FROM notifications WHERE order_id = ANY(${sql.raw(`ARRAY[${orderIds.join(',')}]::bigint[]`)}) ORDER BY id`,
  );
  return rows;
}

describe('claims are fair between destinations', () => {
  it('a destination with its share in flight gets no more from that worker; younger notifications of others go first', async () => {
    const clock = new ManualClock(new Date());
    const crowded = await manyPaidOrders(bed.merchant.id, 'http://crowded.example/notify', 30, new Date(clock.now().getTime() - 60_000));
    const quiet = await manyPaidOrders(bed.merchant.id, 'http://quiet.example:8080/notify', 3, clock.now());
    const claim = (workerId: string) => claimDueNotifications(getDb(), { workerId, now: clock.now(), leaseMs: 60_000, limit: 16 });

    const first = await claim('worker-a');
    const byDestination = (claims: Awaited<ReturnType<typeof claim>>) =>
      Object.fromEntries(['crowded.example', 'quiet.example:8080'].map((destination) => [destination, claims.filter((c) => c.destination === destination).length]));
    expect(byDestination(first)).toEqual({ 'crowded.example': 4, 'quiet.example:8080': 3 });
    expect(await claim('worker-a'), 'worker-a already has 4 in flight to crowded.example').toEqual([]);
    expect(byDestination(await claim('worker-b'))).toEqual({ 'crowded.example': 4, 'quiet.example:8080': 0 });
    expect((await notificationsOf(crowded)).filter((row) => row.attempt_count === 0)).toHaveLength(22);
    expect((await notificationsOf(quiet)).every((row) => row.attempt_count === 1)).toBe(true);
  });
});

describe('circuit breaker per destination', () => {
  it('opens after 5 unanswered attempts, holds notifications back without using their attempts, probes once, then lets the rest through', async () => {
    const clock = new ManualClock(new Date());
    const orders = await manyPaidOrders(bed.merchant.id, bed.receiver.url, 10, clock.now());
    bed.receiver.answer(() => undefined);
    const [single] = workers(clock);
    expect(await single!.runOnce()).toBe(4);
    expect(await circuitOf(bed.receiver.url)).toMatchObject({ consecutive_failures: 4, open_until: null });
    expect(await single!.runOnce()).toBe(4);
    const opened = (await circuitOf(bed.receiver.url))!;
    expect(opened.consecutive_failures).toBe(8);
    expect(new Date(opened.failing_since!).getTime()).toBe(clock.now().getTime());
    expect(new Date(opened.open_until!).getTime()).toBe(clock.now().getTime() + openDurationMs(8));
    expect(openDurationMs(8)).toBe(40_000);

    // Open: the 2 never attempted and the 8 due for their second attempt all wait, with their attempts intact.
    clock.advance(openDurationMs(8) - 1);
    expect(await runAll(workers(clock, 2))).toBe(0);
    expect((await notificationsOf(orders)).map((row) => row.attempt_count).sort()).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);

    // Its time over, one probe among two workers; it fails, the circuit opens for longer.
    clock.advance(1);
    expect(await runAll(workers(clock, 2))).toBe(1);
    const reopened = (await circuitOf(bed.receiver.url))!;
    expect(reopened).toMatchObject({ consecutive_failures: 9, probe_until: null });
    expect(new Date(reopened.open_until!).getTime()).toBe(clock.now().getTime() + openDurationMs(9));
    expect(bed.receiver.received).toHaveLength(9);

    // The destination answers again. One probe among two workers: while it is in flight the other claims nothing
    // (its answer is held until then, so the order does not depend on the machine's speed); its success closes the
    // circuit, and the rest are delivered, 4 at a time per worker.
    let releaseProbeAnswer!: () => void;
    const probeAnswerReleased = new Promise<void>((resolve) => (releaseProbeAnswer = resolve));
    bed.receiver.answer((_received, res) => void probeAnswerReleased.then(() => res.end('success')));
    clock.advance(openDurationMs(9));
    const [prober, other] = [0, 1].map(() => new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock, timeoutMs: 30_000 }));
    const probing = prober!.runOnce();
    await expect.poll(() => bed.receiver.received.length).toBe(10);
    expect(await other!.runOnce(), 'half-open: its one probe is in flight').toBe(0);
    releaseProbeAnswer();
    expect(await probing).toBe(1);
    bed.receiver.answer((_received, res) => res.end('success'));
    expect(await circuitOf(bed.receiver.url)).toMatchObject({ consecutive_failures: 0, failing_since: null, open_until: null });
    // A worker whose deadline a busy machine cannot miss: 200 ms was for the unanswered attempts above, and one
    // delivery late on a loaded CI machine would open the circuit again and leave the last one undelivered.
    const deliverer = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock, timeoutMs: 30_000 });
    expect(await deliverer.runOnce()).toBe(4);
    expect(await deliverer.runOnce()).toBe(4);
    expect(await deliverer.runOnce()).toBe(1);
    const delivered = await notificationsOf(orders);
    expect(delivered.every((row) => row.status === 'delivered')).toBe(true);
    // The oldest due (never attempted) were the probes: one failed then succeeded, one succeeded; the 8 on their 2nd.
    expect(delivered.map((row) => row.attempt_count).sort()).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
  });

  it('a notification held back past the retry plan’s horizon fails then, with the reason', async () => {
    const clock = new ManualClock(new Date());
    bed.receiver.answer(() => undefined);
    const attempted = await manyPaidOrders(bed.merchant.id, bed.receiver.url, 6, clock.now());
    const [worker] = workers(clock);
    while ((await worker!.runOnce()) > 0);
    expect((await circuitOf(bed.receiver.url))!.consecutive_failures).toBe(6);
    const heldBack = await manyPaidOrders(bed.merchant.id, bed.receiver.url, 3, clock.now());

    const horizons = (await notificationsOf([...attempted, ...heldBack])).map((row) => new Date(row.give_up_at).getTime());
    const [firstGiveUp, giveUpAt] = [new Date(Math.min(...horizons)), new Date(Math.max(...horizons))];
    expect(firstGiveUp.getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(89_055_000);
    // Keep the circuit open at the horizon, as for a destination that stayed down: probes kept failing.
    await getDb().execute(sql`UPDATE notification_destinations SET open_until = ${new Date(giveUpAt.getTime() + 60_000)} WHERE destination = ${destinationOf(bed.receiver.url)}`);
    clock.set(new Date(firstGiveUp.getTime() - 1));
    expect(await worker!.runOnce()).toBe(0);
    expect((await notificationsOf([...attempted, ...heldBack])).every((row) => row.status === 'pending')).toBe(true);

    clock.set(giveUpAt);
    expect(await workers(clock)[0]!.runOnce()).toBe(0);
    const ended = await notificationsOf([...attempted, ...heldBack]);
    expect(ended.map((row) => [row.status, row.attempt_count])).toEqual([...Array(6).fill(['failed', 1]), ...Array(3).fill(['failed', 0])]);
    expect(ended[8]!.last_error).toMatch(new RegExp(`^retry plan ended while ${destinationOf(bed.receiver.url)} was failing \\(circuit open since .*Z\\): timeout after 200 ms$`));
  });
});
