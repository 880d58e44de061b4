import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireUsdtOrders } from '../channels/usdt/chain/expire-usdt-orders';
import { recordTransfers } from '../channels/usdt/chain/record-transfers';
import { alipayConfig } from '../channels/alipay/config';
import { pollPendingAlipayOrders } from '../channels/alipay/poll-pending-orders';
import { wechatChannelAdapter } from '../channels/wechat/adapter';
import { wechatConfig } from '../channels/wechat/config';
import { pollPendingWechatOrders } from '../channels/wechat/poll-pending-orders';
import { yhtConfig } from '../channels/yht/config';
import { pollPendingYhtOrders } from '../channels/yht/poll-pending-orders';
import { findMerchantForSigning } from '../merchants/merchants';
import { claimDueNotifications } from '../notifications/claim';
import { listAttention } from '../operator/attention';
import { listAuditLog } from '../operator/audit-log';
import { listMerchants, MERCHANTS_PAGE_SIZE, ORDER_COUNT_CAP } from '../operator/merchants';
import { findAlipayCheckout } from '../channels/alipay/checkout-view';
import { findUsdtCheckout } from '../channels/usdt/checkout-view';
import { createDirectOrder } from '../orders/create-direct-order';
import { createUsdtOrder } from '../channels/usdt/create-usdt-order';
import { usdtMerchantLimits } from '../channels/usdt/schema';
import { findMerchantOrder } from '../orders/find-order';
import { findWechatCheckout } from '../channels/wechat/checkout-view';
import { findYhtCheckout } from '../channels/yht/checkout-view';
import { listMerchantOrders } from '../portal/list-merchant-orders';
import { merchantDashboard } from '../portal/merchant-dashboard';
import type { MerchantContext } from '../portal/merchant-context';
import { orderFiltersSchema } from '../portal/order-filters';
import { getDb } from './client';
import { aMerchant, aWechatCredential } from '../../test/factories';
import { capturingDatabase, explainAnalyze, type CapturedStatement, type PlanReading } from '../../test/plan-inspector';
import { seedAtScale, type ScaleSeed } from '../../test/seed-at-scale';
import { ownConnection } from '../../test/own-connection';

/**
 * A plan regression fails here: each hot path runs the service's own code against 120,000 orders (100,000 of one
 * merchant), every statement it sends is captured and run again under EXPLAIN (ANALYZE, FORMAT JSON), and the plan
 * may read only a bounded number of rows and scan no large table in full. Times are printed, never asserted.
 */

const BIG_TABLES = ['orders', 'notifications', 'notification_attempts', 'chain_transfers', 'upstream_callbacks', 'audit_log', 'upstream_orders'];
/** Rows a hot statement may read, whatever the number of orders: its own rows, a few index pages, 50 addresses twice. */
const ROW_BOUND = 1_000;
const UNREACHABLE = 'http://127.0.0.1:9';

let seed: ScaleSeed;
let capturing: ReturnType<typeof capturingDatabase>;
let explainer: pg.Client;
let context: MerchantContext;
let appId: string;
const report: string[] = [];

beforeAll(async () => {
  const merchants = await Promise.all(Array.from({ length: 5 }, () => aMerchant()));
  appId = merchants[0]!.appId;
  const db = getDb();
  const { rows } = await db.execute<{ id: string }>(sql`
    INSERT INTO receiving_addresses (chain, address, enabled)
    SELECT 'TRC20', 'TScale' || lpad(g::text, 28, '0'), true FROM generate_series(1, 50) AS g RETURNING id`);
  seed = await seedAtScale(db, merchants.map((merchant) => merchant.id), rows.map((row) => Number(row.id)));
  // The platform's biggest merchant holds thousands of slots: the operator has lifted its share of the pool
  // (`pool set --held-slots none --amount-slots none`); the others keep the default share.
  await db.insert(usdtMerchantLimits).values({ merchantId: seed.bigMerchantId, maxHeldSlots: 0, maxAmountSlots: 0 });
  context = { accountId: 0, email: 'owner@merchant.example', merchantId: seed.bigMerchantId, teamRole: 'owner', mustSetUpSecondFactor: false, secondFactorResetAt: null, appId, merchantName: 'Test merchant', orderPermission: true, timeZone: 'Asia/Shanghai' };
  capturing = capturingDatabase(process.env.DATABASE_URL!);
  explainer = await ownConnection();
}, 300_000);

afterAll(async () => {
  console.log(`plan readings at 120,000 orders:\n${report.join('\n')}`);
  await capturing?.close();
  await explainer?.end();
});

/** Runs the work on the capturing database and checks every distinct statement it sent. */
async function expectBounded(label: string, work: () => Promise<unknown>, bound = ROW_BOUND): Promise<PlanReading[]> {
  const statements = await capturing.capture(work);
  expect(statements.length).toBeGreaterThan(0);
  const distinct = new Map<string, CapturedStatement>();
  for (const statement of statements) if (!distinct.has(statement.text)) distinct.set(statement.text, statement);
  const readings: PlanReading[] = [];
  for (const statement of distinct.values()) {
    const reading = await explainAnalyze(explainer, statement);
    readings.push(reading);
    const summary = statement.text.replace(/\s+/g, ' ').slice(0, 110);
    report.push(`  ${label.padEnd(28)} ${String(reading.rowsRead).padStart(7)} rows ${reading.executionMs.toFixed(2).padStart(8)} ms  ${summary}`);
    const bigSeqScans = reading.seqScans.filter((scan) => BIG_TABLES.some((table) => scan === `Seq Scan on ${table}`));
    expect(bigSeqScans, `${label}: ${summary}\n${JSON.stringify(reading.plan, null, 1)}`).toEqual([]);
    expect(reading.rowsRead, `${label}: ${summary}\n${JSON.stringify(reading.plan, null, 1)}`).toBeLessThanOrEqual(bound);
  }
  return readings;
}

async function sampleToken(channel: string, status = 'pending'): Promise<string> {
  const { rows } = await getDb().execute<{ pay_token: string }>(
    sql`SELECT pay_token FROM orders WHERE channel = ${channel} AND status = ${status} ORDER BY id DESC LIMIT 1`,
  );
  return rows[0]!.pay_token;
}

describe('hot statements at 120,000 orders read a bounded number of rows', () => {
  it('open API: the merchant lookup, USDT submit and query', async () => {
    await expectBounded('merchant lookup', () => findMerchantForSigning(capturing.db, appId));
    await expectBounded('USDT submit', () =>
      createUsdtOrder(capturing.db, seed.bigMerchantId, { merchantOrderNo: 'PLAN-USDT-1', amountMinor: 150n, chainType: '1', notifyUrl: 'https://m.example/n' }),
    );
    // Every address holds 1.51: the slot-by-slot path (free slots at +0.01 and cooled ones, then the insert).
    await getDb().execute(sql`
      INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor,
                          receiving_address_id, pay_token, expires_at, holds_slot)
      SELECT 'FULL' || a.id, ${seed.bigMerchantId}, 'FULL-' || a.id, 'USDT', 'USDT', 151, 151, a.id, 'full-token-' || a.id, now() + interval '10 minutes', true
      FROM receiving_addresses a WHERE a.enabled`);
    await expectBounded('USDT submit, +0.01', () =>
      createUsdtOrder(capturing.db, seed.bigMerchantId, { merchantOrderNo: 'PLAN-USDT-2', amountMinor: 151n, chainType: '1', notifyUrl: 'https://m.example/n' }),
    );
    // A merchant one slot below the default share (500): the fair-share check counts its held slots up to its limit
    // and no further, the most it ever reads.
    const nearLimit = seed.otherMerchantIds[1]!;
    await getDb().execute(sql`
      INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                          receiving_address_id, pay_token, expires_at, holds_slot)
      SELECT 'NEAR' || g, ${nearLimit}, 'NEAR-' || g, 'USDT', 'USDT', 900000 + g, 900000 + g, '1', (SELECT min(id) FROM receiving_addresses) + g % 50,
             'near-token-' || g, now() + interval '10 minutes', true
      FROM generate_series(1, 499) AS g`);
    await expectBounded('USDT submit, default share', () =>
      createUsdtOrder(capturing.db, nearLimit, { merchantOrderNo: 'PLAN-USDT-3', amountMinor: 160n, chainType: '1', notifyUrl: 'https://m.example/n' }),
    );
    await expectBounded('query', () => findMerchantOrder(capturing.db, seed.bigMerchantId, 'SEED-77'));
  });

  it('open API: the direct channels’ submit (the upstream answered by an adapter of the test)', async () => {
    const credential = await aWechatCredential(seed.bigMerchantId);
    const adapter = {
      ...wechatChannelAdapter,
      startPayment: async () => ({ upstreamOrderNo: 'PLAN-W-1', cashierUrl: 'weixin://wxpay/plan', qrContent: 'weixin://wxpay/plan' }),
    };
    await expectBounded('WECHAT submit', () =>
      createDirectOrder(
        capturing.db,
        seed.bigMerchantId,
        adapter,
        { merchantOrderNo: 'PLAN-W-1', amountMinor: 100n, payMethod: 'native', credentialId: credential.id, productName: 'plan', notifyUrl: 'https://m.example/n' },
        { clientIp: '203.0.113.9' },
      ),
    );
  });

  it('checkout pages and their status endpoint', async () => {
    for (const [channel, find] of [
      ['USDT', findUsdtCheckout],
      ['YHT', findYhtCheckout],
      ['WECHAT', findWechatCheckout],
      ['ALIPAY', (db: typeof capturing.db, token: string) => findAlipayCheckout(db, token, new Date(), { gatewayUrl: false })],
    ] as const) {
      const token = await sampleToken(channel);
      await expectBounded(`checkout ${channel}`, () => find(capturing.db, token));
    }
  });

  it('the notification claim, chain matching and the USDT expiry job', async () => {
    await expectBounded('notification claim', () => claimDueNotifications(capturing.db, { workerId: 'plan', now: new Date(), leaseMs: 60_000, limit: 20 }));
    const { rows } = await getDb().execute<{ id: string; receiving_address_id: string; pay_amount_minor: string }>(sql`
      SELECT id, receiving_address_id, pay_amount_minor FROM orders WHERE channel = 'USDT' AND status = 'pending' ORDER BY id DESC LIMIT 1`);
    const order = rows[0]!;
    const transfer = (id: string, valueRaw: bigint) => ({
      transactionId: id,
      eventIndex: 0,
      blockNumber: 1,
      blockTime: new Date(),
      from: 'TPayer',
      to: 'TPool',
      receivingAddressId: Number(order.receiving_address_id),
      valueRaw,
    });
    await expectBounded('chain matching', () =>
      recordTransfers(capturing.db, [transfer('plan-exact', BigInt(order.pay_amount_minor) * 10_000n), transfer('plan-short', 1_234_567n)]),
    );
    await expectBounded('USDT expiry job', () => expireUsdtOrders(capturing.db, new Date()));
  });

  it('the pollers pick their due orders', async () => {
    const now = new Date();
    await expectBounded('ALIPAY poller', () => pollPendingAlipayOrders(capturing.db, now, { config: { ...alipayConfig(), gatewayUrl: UNREACHABLE, timeoutMs: 500 } }));
    await expectBounded('WECHAT poller', () => pollPendingWechatOrders(capturing.db, now, { config: { ...wechatConfig(), baseUrl: UNREACHABLE, timeoutMs: 500 } }));
    await expectBounded('YHT poller', () => pollPendingYhtOrders(capturing.db, now, { config: { ...yhtConfig(), baseUrl: UNREACHABLE } }));
  });

  it('the portal: order list and dashboard of the merchant with 100,000 orders', async () => {
    await expectBounded('portal order list', () => listMerchantOrders(capturing.db, context, orderFiltersSchema.parse({})));
    const { rows: deep } = await getDb().execute<{ cursor: string }>(sql`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id AS cursor FROM orders
      WHERE merchant_id = ${seed.bigMerchantId} ORDER BY created_at DESC, id DESC OFFSET 60000 LIMIT 1`);
    await expectBounded('portal list, page 3,000', () => listMerchantOrders(capturing.db, context, orderFiltersSchema.parse({ before: deep[0]!.cursor })));
    await expectBounded('portal list, channel+status', () => listMerchantOrders(capturing.db, context, orderFiltersSchema.parse({ channel: 'WECHAT', status: 'paid' })));
    // Test orders: left out by default (above), listed with the live ones, or alone (a few among 100,000 live ones).
    await getDb().execute(sql`UPDATE orders SET is_test = true WHERE merchant_id = ${seed.bigMerchantId} AND id % 5000 = 0`);
    await expectBounded('portal list, test hidden', () => listMerchantOrders(capturing.db, context, orderFiltersSchema.parse({})));
    await expectBounded('portal list, test included', () => listMerchantOrders(capturing.db, context, orderFiltersSchema.parse({ test: 'include' })));
    await expectBounded('portal list, test only', () => listMerchantOrders(capturing.db, context, orderFiltersSchema.parse({ test: 'only' })));
    const { rows } = await getDb().execute<{ count: number }>(sql`
      SELECT count(*)::int AS count FROM orders WHERE merchant_id = ${seed.bigMerchantId} AND created_at >= now() - interval '8 days'`);
    // The dashboard counts the last 7 days' orders: it reads those (three aggregates over them), never older ones.
    await expectBounded('portal dashboard', () => merchantDashboard(capturing.db, context, new Date(), 'Asia/Shanghai'), 2 * rows[0]!.count + ROW_BOUND);
  });

  it('the operator console: attention list, merchants, audit log', async () => {
    await expectBounded('operator attention list', () => listAttention(capturing.db));
    await expectBounded('operator audit log', () => listAuditLog(capturing.db, {}));
    // Each merchant's order count is capped: a page reads at most the cap for each of its merchants.
    await expectBounded('operator merchants', () => listMerchants(capturing.db, {}), MERCHANTS_PAGE_SIZE * (ORDER_COUNT_CAP + 1) + ROW_BOUND);
  });
});
