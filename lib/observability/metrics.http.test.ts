import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { portalSessionToken } from '../../test/portal-session-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../accounts/accounts';
import { portalAuthSecret } from '../accounts/auth-secret';
import { systemClock } from '../clock';
import { createDatabase, getDb } from '../db/client';
import { notificationFieldsOf } from '../channels';
import { NotificationWorker } from '../notifications/notification-worker';
import { closePendingOrders } from '../orders/order-status';
import { usdtNotices } from '../channels/usdt/notices';
import { orders } from '../db/schema';
import { runJobExclusively } from '../jobs/periodic-job';
import { paySandboxOrder } from '../../sandbox/yht/pay';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { SUBMIT, QUERY, YHT_CALLBACK, startSandboxTestBed } from '../../test/beds/sandboxes';
import { yhtSubmit } from '../../test/yht-sandbox';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { closedPort } from '../../test/unconnectable-host';
import { sampleValue, scrape } from '../../test/metrics-scrape';
import { eq } from 'drizzle-orm';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
const token = randomBytes(24).toString('base64url');
const prometheus = { authorization: `Bearer ${token}` };

beforeAll(async () => {
  process.env.METRICS_TOKEN = token;
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await receivingAddresses(2);
  receiver = await startMerchantReceiver(merchant.appSecret);
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  await receiver.close();
  await bed.close();
});

async function metricsNow(): Promise<string> {
  const answer = await scrape(bed.app.baseUrl, prometheus);
  expect(answer.status).toBe(200);
  return answer.text;
}

/** How much `name{labels}` moved while `work` ran (a series that did not exist yet counts from 0). */
async function moved(name: string, labels: Record<string, string>, work: () => Promise<unknown>): Promise<number> {
  const before = sampleValue(await metricsNow(), name, labels) ?? 0;
  await work();
  return (sampleValue(await metricsNow(), name, labels) ?? 0) - before;
}

async function sessionCookie(role: 'operator' | 'merchant'): Promise<Record<string, string>> {
  const account = await createAccount(getDb(), { email: `${role}-${randomBytes(4).toString('hex')}@example.com`, password: 'a good long password', role });
  return { cookie: `next-auth.session-token=${await portalSessionToken(getDb(), { id: account.id, role }, portalAuthSecret())}` };
}

describe('who may scrape GET /metrics', () => {
  it('refuses anyone without the token or an operator session (401), and answers Prometheus text to those with one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token-not-the-token-not-the' }, await sessionCookie('merchant')]) {
      const refused = await scrape(bed.app.baseUrl, headers);
      expect(refused.status).toBe(401);
      expect(refused.text).toMatch(/operator session or Authorization: Bearer <METRICS_TOKEN>/);
      expect(refused.text).not.toMatch(/payment_/);
    }
    const allowed = await scrape(bed.app.baseUrl, prometheus);
    expect(allowed).toMatchObject({ status: 200, contentType: expect.stringMatching(/^text\/plain; version=0\.0\.4/) });
    expect(allowed.text).toMatch(/^# HELP payment_open_api_requests_total /m);
    expect((await scrape(bed.app.baseUrl, await sessionCookie('operator'))).status).toBe(200);
  });

  it('answers the HEALTH_DETAILS_TOKEN bearer too (the /healthz?details guard)', async () => {
    const healthToken = randomBytes(24).toString('base64url');
    process.env.HEALTH_DETAILS_TOKEN = healthToken;
    try {
      expect((await scrape(bed.app.baseUrl, { authorization: `Bearer ${healthToken}` })).status).toBe(200);
    } finally {
      delete process.env.HEALTH_DETAILS_TOKEN;
    }
  });
});

describe('open-API requests', () => {
  it('count by endpoint, channel and envelope code, with a latency histogram', async () => {
    const submitted = { endpoint: 'submit', channel: 'YHT', code: '0' };
    let merchantOrderNo = '';
    expect(
      await moved('payment_open_api_requests_total', submitted, async () => {
        const fields = yhtSubmit(merchant.appId);
        merchantOrderNo = fields.merchantOrderNo as string;
        expect((await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json.code).toBe(0);
      }),
    ).toBe(1);
    const badSignature = { endpoint: 'submit', channel: 'YHT', code: '1002' };
    expect(await moved('payment_open_api_requests_total', badSignature, () => bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId), 'not-the-secret'))).toBe(1);
    const queried = { endpoint: 'query', channel: 'YHT', code: '0' };
    expect(await moved('payment_open_api_requests_total', queried, () => bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo, payType: 'YHT' }, merchant.appSecret))).toBe(1);
    // A payType nobody knows is counted as 'unknown': a caller cannot add series.
    const unknown = { endpoint: 'submit', channel: 'unknown', code: '1003' };
    expect(await moved('payment_open_api_requests_total', unknown, () => bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId, { payType: 'X'.repeat(30) }), merchant.appSecret))).toBe(1);
    expect(await moved('payment_open_api_request_duration_seconds_count', { endpoint: 'submit', channel: 'YHT' }, () => bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId), merchant.appSecret))).toBe(1);
    expect(await metricsNow()).not.toContain('X'.repeat(30));
  });
});

describe('orders, upstream calls and callbacks', () => {
  it('a sandbox YHT order: created, the upstream create call, the callback received and accepted, paid', async () => {
    const text = await metricsNow();
    const before = (name: string, labels: Record<string, string>) => sampleValue(text, name, labels) ?? 0;
    const created = before('payment_orders_total', { channel: 'YHT', event: 'created' });
    const upstream = before('payment_upstream_calls_total', { channel: 'YHT', operation: 'create', outcome: 'ok' });
    const received = before('payment_callbacks_received_total', { channel: 'YHT' });
    const accepted = before('payment_callbacks_total', { channel: 'YHT', outcome: 'accepted', reason: 'paid' });
    const paid = before('payment_orders_total', { channel: 'YHT', event: 'paid' });

    const { json } = await bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId, { notifyUrl: receiver.url }), merchant.appSecret);
    expect(json.code).toBe(0);
    const { rows } = await getDb().execute<{ trade_no: string }>(sql`SELECT trade_no FROM sandbox_yht_orders WHERE out_trade_no = ${json.data.orderNo}`);
    await paySandboxOrder(getDb(), { tradeNo: rows[0]!.trade_no });

    const after = await metricsNow();
    expect(sampleValue(after, 'payment_orders_total', { channel: 'YHT', event: 'created' })).toBe(created + 1);
    expect(sampleValue(after, 'payment_upstream_calls_total', { channel: 'YHT', operation: 'create', outcome: 'ok' })).toBe(upstream + 1);
    expect(sampleValue(after, 'payment_upstream_call_duration_seconds_count', { channel: 'YHT', operation: 'create' })).toBeGreaterThan(0);
    expect(sampleValue(after, 'payment_callbacks_received_total', { channel: 'YHT' })).toBe(received + 1);
    expect(sampleValue(after, 'payment_callbacks_total', { channel: 'YHT', outcome: 'accepted', reason: 'paid' })).toBe(accepted + 1);
    expect(sampleValue(after, 'payment_orders_total', { channel: 'YHT', event: 'paid' })).toBe(paid + 1);
  });

  it('an unreachable upstream counts as unreachable', async () => {
    const previous = process.env.YHT_BASE_URL;
    process.env.YHT_BASE_URL = `http://127.0.0.1:${await closedPort()}`;
    try {
      const labels = { channel: 'YHT', operation: 'create', outcome: 'unreachable' };
      expect(await moved('payment_upstream_calls_total', labels, () => bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId), merchant.appSecret))).toBe(1);
    } finally {
      process.env.YHT_BASE_URL = previous;
    }
  });

  it('a forged callback is received and refused, by its reason', async () => {
    const post = () => fetch(`${bed.app.baseUrl}${YHT_CALLBACK}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outTradeNo=Y1&sign=FORGED' });
    const text = await metricsNow();
    const received = sampleValue(text, 'payment_callbacks_received_total', { channel: 'YHT' }) ?? 0;
    await post();
    const after = await metricsNow();
    expect(sampleValue(after, 'payment_callbacks_received_total', { channel: 'YHT' })).toBe(received + 1);
    const refusals = after.split('\n').filter((line) => line.startsWith('payment_callbacks_total{') && line.includes('outcome="refused"'));
    expect(refusals.length).toBeGreaterThan(0);
  });

  it('orders closed before their window and expired past it are told apart', async () => {
    const open = await aPendingUsdtOrder(merchant.id, receiver.url);
    const late = await aPendingUsdtOrder(merchant.id, receiver.url);
    await getDb().update(orders).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, late.id));
    expect(await moved('payment_orders_total', { channel: 'USDT', event: 'closed' }, () => closePendingOrders(getDb(), usdtNotices, eq(orders.id, open.id), new Date()))).toBe(1);
    expect(await moved('payment_orders_total', { channel: 'USDT', event: 'expired' }, () => closePendingOrders(getDb(), usdtNotices, eq(orders.id, late.id), new Date()))).toBe(1);
  });
});

describe('notifications', () => {
  const worker = () => new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock: systemClock, timeoutMs: 2000 });

  it('delivered (with paid→delivered latency) and retried attempts, the due count and oldest due age, open circuits', async () => {
    await getDb().execute(sql`UPDATE notifications SET status = 'superseded' WHERE status = 'pending'`);
    const delivered = await aPendingUsdtOrder(merchant.id, receiver.url);
    await payOrder(delivered.id, new Date(Date.now() - 3000));
    receiver.answer((_received, res) => res.end('success'));
    const text = await metricsNow();
    expect(sampleValue(text, 'payment_notifications_due')).toBe(1);
    expect(sampleValue(text, 'payment_notifications_oldest_due_age_seconds')).toBeGreaterThanOrEqual(2);
    const latencyCount = sampleValue(text, 'payment_notification_paid_to_delivered_seconds_count', { channel: 'USDT' }) ?? 0;
    expect(await moved('payment_notifications_total', { channel: 'USDT', result: 'delivered' }, () => worker().runOnce())).toBe(1);
    const after = await metricsNow();
    expect(sampleValue(after, 'payment_notification_paid_to_delivered_seconds_count', { channel: 'USDT' })).toBe(latencyCount + 1);
    expect(sampleValue(after, 'payment_notifications_due')).toBe(0);
    expect(sampleValue(after, 'payment_notifications_oldest_due_age_seconds')).toBe(0);

    const refused = await aPendingUsdtOrder(merchant.id, receiver.url);
    await payOrder(refused.id, new Date());
    receiver.answer((_received, res) => res.writeHead(500).end('no'));
    expect(await moved('payment_notifications_total', { channel: 'USDT', result: 'retried' }, () => worker().runOnce())).toBe(1);

    const circuits = async () => sampleValue(await metricsNow(), 'payment_notification_destinations_open_circuit');
    const openBefore = (await circuits()) ?? 0;
    await getDb().execute(sql`
      INSERT INTO notification_destinations (destination, consecutive_failures, open_until) VALUES (${`dead-${randomBytes(4).toString('hex')}.example:443`}, 5, now() + interval '1 minute')`);
    expect(await circuits()).toBe(openBefore + 1);
  });
});

describe('jobs, chain watcher, database pool', () => {
  it('periodic job runs and failures are counted by job', async () => {
    const context = { db: getDb(), clock: systemClock, log: () => undefined };
    expect(await moved('payment_job_runs_total', { job: 'metrics-test-job', outcome: 'ok' }, () => runJobExclusively({ name: 'metrics-test-job', intervalMs: 1000, run: async () => undefined }, context))).toBe(1);
    const failing = { name: 'metrics-test-job', intervalMs: 1000, run: async () => Promise.reject(new Error('upstream down')) };
    expect(await moved('payment_job_runs_total', { job: 'metrics-test-job', outcome: 'failed' }, () => runJobExclusively(failing, context).catch(() => undefined))).toBe(1);
  });

  it('the TRC20 watcher lag behind the final block it read through, and the pool in use and waiting', async () => {
    const readThrough = Date.now() - 90_000;
    await getDb().execute(sql`
      INSERT INTO chain_cursors (name, block_timestamp_ms) VALUES ('usdt-trc20', ${readThrough - 60_000}), ('usdt-trc20:read-through', ${readThrough})
      ON CONFLICT (name) DO UPDATE SET block_timestamp_ms = EXCLUDED.block_timestamp_ms`);
    const text = await metricsNow();
    expect(sampleValue(text, 'payment_chain_watcher_lag_seconds', { chain: 'TRC20' })).toBeGreaterThanOrEqual(90);
    expect(sampleValue(text, 'payment_chain_watcher_lag_seconds', { chain: 'TRC20' })).toBeLessThan(120);
    expect(sampleValue(text, 'payment_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sampleValue(text, 'payment_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sampleValue(text, 'payment_metrics_database_up')).toBe(1);
  });

  it('connections the pools opened: one for a new pool, none for a statement the server refused on it', async () => {
    const opened = 'payment_db_pool_connections_opened_total';
    await metricsNow(); // the scrape's own read of the database has its connections before anything is counted
    const pool = createDatabase(process.env.DATABASE_URL!, 1);
    try {
      expect(await moved(opened, {}, () => pool.execute(sql`SELECT 1`))).toBe(1);
      const refusedThenNext = async () => {
        await expect(pool.execute(sql`SELECT 1 / 0`)).rejects.toThrow();
        await pool.execute(sql`SELECT 1`);
      };
      expect(await moved(opened, {}, refusedThenNext)).toBe(0);
    } finally {
      await pool.$client.end();
    }
  });
});
