import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { getDb } from '../db/client';
import { notificationTestBed } from '../../test/notify-receiver';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { NotificationWorker } from './notification-worker';
import { notificationFieldsOf } from '../channels/index';

const clock = new ManualClock(new Date());

function worker(options: Partial<ConstructorParameters<typeof NotificationWorker>[0]> = {}) {
  return new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock, timeoutMs: 500, ...options });
}

async function notificationOf(orderId: number) {
  const { rows } = await getDb().execute<{ id: string; status: string; attempt_count: number; next_attempt_at: Date; last_error: string | null }>(
    sql`SELECT id, status, attempt_count, next_attempt_at, last_error FROM notifications WHERE order_id = ${orderId} ORDER BY cycle`,
  );
  return rows;
}

async function attemptsOf(notificationId: string | number) {
  const { rows } = await getDb().execute<{ attempt_no: number; outcome: string; http_status: number | null; latency_ms: number | null; response_excerpt: string | null; error: string | null; started_at: Date }>(
    sql`SELECT attempt_no, outcome, http_status, latency_ms, response_excerpt, error, started_at FROM notification_attempts WHERE notification_id = ${notificationId} ORDER BY attempt_no`,
  );
  return rows;
}

const bed = notificationTestBed({ isolateEachTest: true });

describe('outbox', () => {
  it('one paid order yields one notification however often the payment is reported', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const reports = await Promise.all(Array.from({ length: 5 }, () => payOrder(order.id, clock.now())));
    expect(reports.filter((report) => report.changed)).toHaveLength(1);
    expect(await notificationOf(order.id)).toHaveLength(1);
    expect((await payOrder(order.id, clock.now())).changed).toBe(false);
    expect(await notificationOf(order.id)).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('POSTs the signed form with the USDT fields and records the acknowledged attempt', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url, { amountMinor: 1234n, attach: 'user=42&x=y' });
    const paidAt = clock.now();
    await payOrder(order.id, paidAt, 'txid-abc');
    expect(await worker().runOnce()).toBe(1);

    expect(bed.receiver.received).toHaveLength(1);
    const [{ form, contentType, signatureValid }] = bed.receiver.received as [(typeof bed.receiver.received)[0]];
    expect(contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(signatureValid).toBe(true);
    expect(form).toEqual({
      appId: bed.merchant.appId,
      orderNo: order.orderNo,
      pay_usdt: '12.34',
      merchantOrderNo: order.merchantOrderNo,
      payType: 'USDT',
      status: 'PAID',
      payTime: String(Math.floor(paidAt.getTime() / 1000)),
      tradeNo: 'txid-abc',
      attach: 'user=42&x=y',
      signature: form.signature,
    });
    const [notification] = await notificationOf(order.id);
    expect(notification!.status).toBe('delivered');
    const [attempt] = await attemptsOf(notification!.id);
    expect(attempt).toMatchObject({ attempt_no: 1, outcome: 'acknowledged', http_status: 200, response_excerpt: 'success', error: null });
    expect(attempt!.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['success', 200, 'success', 'delivered'],
    ['ok', 200, 'ok', 'delivered'],
    ['JSON code 0', 200, '{"code":0}', 'delivered'],
    ['success with a newline', 200, 'success\n', 'delivered'],
    ['another body', 200, 'received', 'pending'],
    ['HTTP 500', 500, 'success', 'pending'],
    ['a redirect', 302, '', 'pending'],
  ])('%s → %s', async (_name, status, body, expected) => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await payOrder(order.id, clock.now());
    bed.receiver.answer((_received, res) => {
      res.writeHead(status, status === 302 ? { location: 'https://elsewhere.example/' } : {});
      res.end(body);
    });
    await worker().runOnce();
    const [notification] = await notificationOf(order.id);
    expect(notification!.status).toBe(expected);
    const [attempt] = await attemptsOf(notification!.id);
    expect(attempt!.http_status).toBe(status);
    if (status === 302) expect(attempt!.error).toBe('redirect (HTTP 302) not followed');
    if (expected === 'pending') expect(new Date(notification!.next_attempt_at).getTime()).toBe(clock.now().getTime() + 15_000);
  });

  it('a receiver that does not answer in time is a failed attempt', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await payOrder(order.id, clock.now());
    bed.receiver.answer(() => undefined); // never answers
    await worker({ timeoutMs: 300 }).runOnce();
    const [notification] = await notificationOf(order.id);
    const [attempt] = await attemptsOf(notification!.id);
    expect(attempt).toMatchObject({ outcome: 'rejected', http_status: null, error: 'timeout after 300 ms' });
    expect(notification!.status).toBe('pending');
  });

  it('keeps only the first 1 KiB of a long answer', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await payOrder(order.id, clock.now());
    bed.receiver.answer((_received, res) => res.end('x'.repeat(200_000)));
    await worker().runOnce();
    const [notification] = await notificationOf(order.id);
    expect((await attemptsOf(notification!.id))[0]!.response_excerpt).toHaveLength(1024);
  });
});

describe('retry plan on the clock', () => {
  it('retries at 15 s, 1 min, 3 min, 10 min, 30 min, 1 h, 2 h, 6 h, 15 h, then marks the notification failed', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const start = clock.now();
    await payOrder(order.id, start);
    bed.receiver.answer((_received, res) => {
      res.writeHead(500);
      res.end('busy');
    });
    const gaps = [15, 60, 180, 600, 1800, 3600, 7200, 21600, 54000];
    const delivering = worker();
    expect(await delivering.runOnce()).toBe(1);
    for (const gap of gaps) {
      clock.advance(gap * 1000 - 1000);
      expect(await delivering.runOnce(), `not due 1 s before the ${gap} s retry`).toBe(0);
      clock.advance(1000);
      expect(await delivering.runOnce(), `due after ${gap} s`).toBe(1);
    }
    const [notification] = await notificationOf(order.id);
    expect(notification).toMatchObject({ status: 'failed', attempt_count: 10, last_error: 'not acknowledged (HTTP 500)' });
    const attempts = await attemptsOf(notification!.id);
    expect(attempts.map((attempt) => attempt.attempt_no)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const offsets = attempts.map((attempt) => (new Date(attempt.started_at).getTime() - start.getTime()) / 1000);
    expect(offsets).toEqual([0, 15, 75, 255, 855, 2655, 6255, 13455, 35055, 89055]);
    clock.advance(100 * 3600 * 1000);
    expect(await delivering.runOnce()).toBe(0);
  });
});

describe('SSRF guard', () => {
  it.each(['http://127.0.0.1:PORT/notify', 'http://localhost:PORT/notify', 'http://[::1]:PORT/notify', 'http://169.254.169.254/latest/meta-data'])(
    'refuses %s unless private networks are allowed, as a failed attempt with the reason',
    async (template) => {
      const order = await aPendingUsdtOrder(bed.merchant.id, template.replace('PORT', String(bed.receiver.port)));
      await payOrder(order.id, clock.now());
      const allowed = process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS;
      delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS;
      try {
        await worker().runOnce();
      } finally {
        process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = allowed;
      }
      expect(bed.receiver.received).toHaveLength(0);
      const [notification] = await notificationOf(order.id);
      const [attempt] = await attemptsOf(notification!.id);
      expect(attempt!.outcome).toBe('rejected');
      expect(attempt!.error).toMatch(/^refused: destination .*(internal host name|not a public address)/);
    },
  );
});
