import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstRun } from '../../bootstrap/first-run';
import { runAdminJson } from '../../cli/run-admin-for-tests';
import { getDb } from '../../db/client';
import { merchants } from '../../db/schema';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { startTestAppForMonitor } from '../../../test/open-api-client';
import { capturingDatabase } from '../../../test/plan-inspector';
import { createUsdtOrder } from './create-usdt-order';

/**
 * The seed's +0.01 rule for a merchant no other merchant contends with: on a fresh install (`npm run dev`'s first run:
 * one merchant, one sandbox receiving address) its second order of an amount answers the amount + 0.01 and its third
 * 1010; with n addresses it gets 2n orders of one amount. The fair-use limits of the shared pool weigh on a merchant
 * only while another merchant may place orders, and then neither can take the other's only slot. The file's tests
 * run in order: the first is the fresh install, before any other merchant exists.
 */
const SUBMIT = '/v1/api/open/order/submit';
type Merchant = { id: number; appId: string; appSecret: string };
let app: Awaited<ReturnType<typeof startTestAppForMonitor>>;
let firstRun: Merchant;
let counter = 0;

function submit(merchant: Merchant, payUsdt: string) {
  counter += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `LONE-${counter}`, pay_usdt: payUsdt, notifyUrl: 'https://merchant.example/notify' };
  return app.signedPost(SUBMIT, fields, merchant.appSecret);
}

/** A pool of `count` fresh addresses on TRC20, every earlier one disabled (their orders keep their slots). */
async function freshPool(count: number): Promise<void> {
  await getDb().execute(sql`UPDATE receiving_addresses SET enabled = false`);
  await receivingAddresses(count);
}

/** Only this merchant may place orders (the others' permission off), as on a platform of one merchant. */
async function alone(merchant: Merchant): Promise<void> {
  await getDb().execute(sql`UPDATE merchants SET order_permission = (id = ${merchant.id})`);
}

/** The slots held on enabled addresses: (address, pay amount, merchant), one row per order. */
async function heldSlots(): Promise<{ address: string; amount: string; merchantId: number }[]> {
  const { rows } = await getDb().execute<{ address: string; amount: string; merchant_id: string }>(sql`
    SELECT o.receiving_address_id::text AS address, (o.pay_amount_minor / 100.0)::numeric(12, 2)::text AS amount, o.merchant_id::text AS merchant_id
    FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id
    WHERE o.holds_slot AND a.enabled ORDER BY o.pay_amount_minor, o.receiving_address_id`);
  return rows.map((row) => ({ address: row.address, amount: row.amount, merchantId: Number(row.merchant_id) }));
}

/** No (address, amount) is held twice, and every order answered code 0 holds a slot. */
async function expectInvariants(answered: { json: any }[]): Promise<void> {
  const held = await heldSlots();
  const keys = held.map((slot) => `${slot.address}:${slot.amount}`);
  expect(new Set(keys).size).toBe(keys.length);
  const orderNos = answered.filter((answer) => answer.json.code === 0).map((answer) => answer.json.data.orderNo as string);
  const { rows } = await getDb().execute<{ order_no: string }>(sql`SELECT order_no FROM orders WHERE holds_slot AND order_no = ANY(${`{${orderNos.join(',')}}`}::text[])`);
  expect(rows.map((row) => row.order_no).sort()).toEqual([...orderNos].sort());
}

/** While `work` runs, the merchant's orders hold `count` more slots (amounts 5000.01 and up, on an enabled address). */
async function holdingInBulk(merchant: Merchant, count: number, work: () => Promise<void>): Promise<void> {
  await getDb().execute(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                        receiving_address_id, pay_token, expires_at, holds_slot)
    SELECT 'UBULK' || ${merchant.id}::text || '-' || g, ${merchant.id}, 'BULK-' || g, 'USDT', 'USDT', 500000 + g, 500000 + g, '1',
           (SELECT min(id) FROM receiving_addresses WHERE enabled), 'bulk-token-' || ${merchant.id}::text || '-' || g, now() + interval '30 minutes', true
    FROM generate_series(1, ${count}::int) AS g`);
  try {
    await work();
  } finally {
    await getDb().execute(sql`DELETE FROM orders WHERE merchant_id = ${merchant.id} AND merchant_order_no LIKE 'BULK-%'`);
  }
}

/** The statements one order of the merchant sends, on the common path (a free slot at the amount). */
async function statementsOfOneOrder(merchant: Merchant, amountMinor: bigint): Promise<string[]> {
  const capturing = capturingDatabase(process.env.DATABASE_URL!);
  try {
    counter += 1;
    const statements = await capturing.capture(() => createUsdtOrder(capturing.db, merchant.id, { merchantOrderNo: `LONE-${counter}`, amountMinor, chainType: '1' }));
    return statements.map((statement) => statement.text.trim().split(/\s+/).slice(0, 2).join(' '));
  } finally {
    await capturing.close();
  }
}

const poolFull = (amount: string, next: string, addresses: string) =>
  `pay_usdt ${amount}: ${addresses} already ${addresses.startsWith('the only') ? 'holds' : 'hold'} ${amount} and ${next} for other orders ` +
  '(pending, or expired and in their 60-minute cool-down); try again when one of them is paid or its cool-down ends, or ask the operator to add receiving addresses';

beforeAll(async () => {
  app = await startTestAppForMonitor();
  const seeded = await seedFirstRun(getDb());
  if (!seeded) throw new Error('the test database was not empty: no first run');
  const [row] = await getDb().select({ id: merchants.id }).from(merchants).where(eq(merchants.appId, seeded.merchant.appId));
  firstRun = { id: row!.id, appId: seeded.merchant.appId, appSecret: seeded.merchant.appSecret };
});
afterAll(() => app.close());

describe('a merchant alone on its pool keeps the +0.01 rule in full', () => {
  it('fresh install (the first-run merchant, one address): 62.00, then 62.01, then 1010 naming the pool', async () => {
    expect(await heldSlots()).toEqual([]);
    expect((await submit(firstRun, '62.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '62.00' } });
    expect((await submit(firstRun, '62.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '62.01' } });
    expect((await submit(firstRun, '62.00')).json).toEqual({ code: 1010, message: poolFull('62.00', '62.01', 'the only receiving address on TRC20'), data: null });
    expect((await heldSlots()).map((slot) => slot.amount)).toEqual(['62.00', '62.01']);
  });

  it('n addresses: 2n orders of one amount, n at it and n at the next cent', async () => {
    await freshPool(3);
    const answers = [];
    for (let index = 0; index < 6; index += 1) answers.push((await submit(firstRun, '40.00')).json);
    expect(answers.map((json) => json.data?.pay_usdt)).toEqual(['40.00', '40.00', '40.00', '40.01', '40.01', '40.01']);
    expect((await submit(firstRun, '40.00')).json).toEqual({ code: 1010, message: poolFull('40.00', '40.01', 'all 3 receiving addresses on TRC20'), data: null });
  });

  it('no default bound on its slots in all: its 501st held slot is granted', async () => {
    await freshPool(2);
    await holdingInBulk(firstRun, 500, async () => {
      expect((await submit(firstRun, '71.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '71.00' } });
      expect(await runAdminJson(['pool', 'show', '--app-id', firstRun.appId])).toEqual({ appId: firstRun.appId, maxHeldSlots: 'default', maxAmountSlots: 'default' });
    });
  });

  it('a merchant that may not place orders does not contend', async () => {
    await freshPool(1);
    await aMerchant({ orderPermission: false });
    expect((await submit(firstRun, '73.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '73.00' } });
    expect((await submit(firstRun, '73.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '73.01' } });
  });

  it('limits the operator set still apply to a merchant alone', async () => {
    await freshPool(2);
    await runAdminJson(['pool', 'set', '--app-id', firstRun.appId, '--amount-slots', '1', '--reason', 'one order per amount']);
    try {
      expect((await submit(firstRun, '74.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '74.00' } });
      expect((await submit(firstRun, '74.00')).json).toEqual({
        code: 1010,
        message:
          "pay_usdt 74.00: this merchant's orders already hold 1 of the 4 receiving slots for 74.00 and 74.01 on TRC20, the most the operator allows this merchant " +
          "of one amount (amount-slots 1); try again when one of its orders is paid, or has expired and its 60-minute cool-down has ended, or ask the operator to raise this merchant's amount-slots limit",
        data: null,
      });
    } finally {
      await runAdminJson(['pool', 'set', '--app-id', firstRun.appId, '--amount-slots', 'default']);
    }
  });

  it('its submit is the one batched insert: no fair-share statement after it', async () => {
    await freshPool(1);
    expect(await statementsOfOneOrder(firstRun, 9_100n)).toEqual(['WITH inserted']);
  });
});

describe('between merchants, nobody makes an amount unavailable to the others', () => {
  let second: Merchant;
  beforeAll(async () => {
    second = await aMerchant();
  });

  it('two merchants on one address: neither can take the other’s only slot', async () => {
    await freshPool(1);
    expect((await submit(firstRun, '88.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '88.00' } });
    expect((await submit(firstRun, '88.00')).json).toEqual({
      code: 1010,
      message:
        "pay_usdt 88.00: this merchant's orders already hold 1 of the 2 receiving slots for 88.00 and 88.01 on TRC20, the most one merchant may hold of one amount " +
        'while other merchants order from the same receiving addresses (half of them); try again when one of its orders is paid, or has expired and its ' +
        "60-minute cool-down has ended, or ask the operator to add receiving addresses or raise this merchant's amount-slots limit",
      data: null,
    });
    expect((await submit(firstRun, '88.01')).json).toMatchObject({ code: 1010, message: expect.stringContaining('for 88.00 and 88.01 on TRC20, the most one merchant may hold') });
    expect((await submit(second, '88.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '88.01' } });
    expect((await submit(second, '88.00')).json).toMatchObject({ code: 1010, message: expect.stringContaining('the most one merchant may hold of one amount') });
    // The other way round: the second merchant first.
    expect((await submit(second, '89.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '89.00' } });
    expect((await submit(second, '89.00')).json.code).toBe(1010);
    expect((await submit(firstRun, '89.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '89.01' } });
    const held = await heldSlots();
    expect(held.map((slot) => [slot.amount, slot.merchantId === firstRun.id ? 'first' : 'second'])).toEqual([
      ['88.00', 'first'],
      ['88.01', 'second'],
      ['89.00', 'second'],
      ['89.01', 'first'],
    ]);
  });

  it('a merchant under the default share pays the check after the insert', async () => {
    await freshPool(1);
    expect(await statementsOfOneOrder(second, 9_200n)).toEqual(['WITH inserted', 'WITH pool']);
  });

  it('the default limit on slots in all comes back with the second merchant', async () => {
    await freshPool(2);
    await holdingInBulk(firstRun, 500, async () => {
      expect((await submit(firstRun, '75.00')).json).toEqual({
        code: 1010,
        message:
          "this merchant's USDT orders already hold 500 receiving slots on TRC20 (pending orders and expired ones in their cool-down), the most one merchant may hold " +
          'while other merchants order from the same receiving addresses (held-slots, default 500); try again when one of its orders is paid, or has expired and its ' +
          "60-minute cool-down has ended, or ask the operator to raise this merchant's held-slots limit",
        data: null,
      });
      expect((await submit(second, '75.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '75.00' } });
    });
  });

  it('the health details show who shares each pool and the amounts at a merchant’s share', async () => {
    await freshPool(2);
    await submit(second, '12.00');
    await submit(second, '12.00');
    await submit(second, '13.00');
    const response = await fetch(`${app.baseUrl}/healthz?details`, { headers: app.monitor });
    const { details } = (await response.json()) as { details: { pools: Record<string, any>[] } };
    const trc20 = details.pools.find((pool) => pool.chain === 'TRC20')!;
    expect(trc20).toMatchObject({ addresses: 2, merchants: 2, defaultShare: { amountSlots: 2, heldSlots: 500 } });
    expect(trc20.bands[2]).toEqual({ band: '10–100', heldSlots: 3, heldAmounts: 2, fullAmounts: 1, fewestFreeSlots: 0, busiestAmount: '12.00', amountsAtShare: 1 });

    await alone(second);
    const lone = await (await fetch(`${app.baseUrl}/healthz?details`, { headers: app.monitor })).json();
    const loneTrc20 = (lone.details.pools as Record<string, any>[]).find((pool) => pool.chain === 'TRC20')!;
    expect(loneTrc20).toMatchObject({ addresses: 2, merchants: 1, defaultShare: null });
    expect(loneTrc20.bands[2]).toMatchObject({ heldSlots: 3, amountsAtShare: 0 });
    await getDb().execute(sql`UPDATE merchants SET order_permission = true WHERE id = ${firstRun.id}`);
  });
});

describe('20 simultaneous submits of one amount', () => {
  const burst = (pick: (index: number) => Merchant, payUsdt: string) => Promise.all(Array.from({ length: 20 }, (_, index) => submit(pick(index), payUsdt)));

  it('by one merchant alone on 3 addresses: 3 at the amount, 3 at the next cent, 14 refused, no slot held twice', async () => {
    await freshPool(3);
    const lone = await aMerchant();
    await alone(lone);
    try {
      const answers = await burst(() => lone, '25.00');
      expect(answers.filter((answer) => answer.json.code === 0).map((answer) => answer.json.data.pay_usdt).sort()).toEqual(['25.00', '25.00', '25.00', '25.01', '25.01', '25.01']);
      expect(answers.filter((answer) => answer.json.code === 1010)).toHaveLength(14);
      await expectInvariants(answers);
      expect((await heldSlots()).filter((slot) => slot.merchantId === lone.id)).toHaveLength(6);
    } finally {
      await getDb().execute(sql`UPDATE merchants SET order_permission = true`);
    }
  });

  it('by two merchants on 3 addresses: each ends with its 3 of the 6 slots, no slot held twice', async () => {
    await freshPool(3);
    const [a, b] = [await aMerchant(), await aMerchant()];
    const answers = await burst((index) => (index % 2 === 0 ? a : b), '35.00');
    await expectInvariants(answers);
    const holding = async (merchant: Merchant) => (await heldSlots()).filter((slot) => slot.merchantId === merchant.id).length;
    // A submit taken back over its share may have kept the other from a slot for that moment: each may then take what is left.
    for (const merchant of [a, b]) {
      expect(await holding(merchant)).toBeLessThanOrEqual(3);
      while ((await holding(merchant)) < 3) expect((await submit(merchant, '35.00')).json.code).toBe(0);
      expect((await submit(merchant, '35.00')).json).toMatchObject({ code: 1010, message: expect.stringContaining('the most one merchant may hold of one amount') });
    }
    expect([await holding(a), await holding(b)]).toEqual([3, 3]);
    await expectInvariants(answers);
  });
});
