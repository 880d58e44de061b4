import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { orders } from '../../db/schema';
import { keptWithinShare } from './merchant-holdings';
import { runAdminJson } from '../../cli/run-admin-for-tests';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { startTestAppForMonitor } from '../../../test/open-api-client';

/**
 * The receiving addresses are shared by every merchant. The probe's finding: merchant A submitted 88.00 twice (and got
 * 88.00 and 88.01), and merchant B's 88.00 was then 1010. Each merchant may hold only its share of an amount's slots.
 */
const SUBMIT = '/v1/api/open/order/submit';
let app: Awaited<ReturnType<typeof startTestAppForMonitor>>;
let counter = 0;
type TestMerchant = Awaited<ReturnType<typeof aMerchant>>;

function submit(merchant: TestMerchant, payUsdt: string) {
  counter += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `FAIR-${counter}-${Date.now()}`, pay_usdt: payUsdt, notifyUrl: 'https://merchant.example/notify' };
  return app.signedPost(SUBMIT, fields, merchant.appSecret);
}

async function addressOf(orderNo: string): Promise<number> {
  const [row] = await getDb().select({ id: orders.receivingAddressId }).from(orders).where(eq(orders.orderNo, orderNo));
  return row!.id!;
}

async function heldBy(merchant: TestMerchant): Promise<string[]> {
  const { rows } = await getDb().execute<{ amount: string }>(
    sql`SELECT (pay_amount_minor / 100.0)::numeric(12, 2)::text AS amount FROM orders WHERE merchant_id = ${merchant.id} AND holds_slot ORDER BY pay_amount_minor`,
  );
  return rows.map((row) => row.amount);
}

beforeAll(async () => {
  app = await startTestAppForMonitor();
});
afterAll(() => app.close());
// Each test has a pool of its own: one enabled address, the probe's case.
beforeEach(async () => {
  await getDb().execute(sql`UPDATE receiving_addresses SET enabled = false`);
  await receivingAddresses(1);
});

describe('one merchant cannot make an amount unavailable to the others', () => {
  it('A’s second 88.00 is refused naming the limit, and B’s 88.00 gets the slot A could have taken', async () => {
    const [a, b] = [await aMerchant(), await aMerchant()];
    expect((await submit(a, '88.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '88.00' } });
    const second = await submit(a, '88.00');
    // The whole message is checked in lone-merchant.http.test.ts.
    expect(second.json).toMatchObject({
      code: 1010,
      message: expect.stringMatching(/^pay_usdt 88\.00: this merchant's orders already hold 1 of the 2 receiving slots for 88\.00 and 88\.01 on TRC20, the most one merchant may hold of one amount while other merchants/),
    });
    expect((await submit(b, '88.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '88.01' } });
    expect(await heldBy(a)).toEqual(['88.00']);
  });

  it('A cannot take the next cent through a neighbouring amount either', async () => {
    const [a, b] = [await aMerchant(), await aMerchant()];
    expect((await submit(a, '66.00')).json.code).toBe(0);
    expect((await submit(a, '66.01')).json).toMatchObject({ code: 1010, message: expect.stringContaining('for 66.00 and 66.01 on TRC20') });
    expect((await submit(a, '65.99')).json).toMatchObject({ code: 1010, message: expect.stringContaining('the most one merchant may hold of one amount') });
    expect((await submit(b, '66.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '66.01' } });
    // Amounts two cents apart share no slot: A may hold both.
    expect((await submit(a, '66.02')).json).toMatchObject({ code: 0, data: { pay_usdt: '66.02' } });
  });

  it('takes back an order that a concurrent submit of the same merchant took over the share', async () => {
    const [a, b] = [await aMerchant(), await aMerchant()];
    const first = await submit(a, '77.00');
    // A second submit of A ran at the same moment: its check saw nothing held yet, and it took 77.01.
    const [raced] = await getDb()
      .insert(orders)
      .values({
        orderNo: `U-RACED-${Date.now()}`, merchantId: a.id, merchantOrderNo: `RACED-${Date.now()}`, channel: 'USDT', currency: 'USDT',
        requestedAmountMinor: 7700n, payAmountMinor: 7701n, chainType: '1', receivingAddressId: await addressOf(first.json.data.orderNo),
        notifyUrl: 'https://merchant.example/notify', payToken: randomBytes(32).toString('base64url'), expiresAt: new Date(Date.now() + 30 * 60_000), holdsSlot: true,
      })
      .returning();
    await expect(keptWithinShare(getDb(), raced!, 'TRC20')).rejects.toMatchObject({ kind: 'pool_share_exceeded', message: expect.stringContaining('for 77.00 and 77.01 on TRC20') });
    expect(await heldBy(a)).toEqual(['77.00']);
    expect((await submit(b, '77.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '77.01' } });
  });

  it('the operator sets a merchant’s share (audited): slots of one amount, and slots in all', async () => {
    const [a, b] = [await aMerchant(), await aMerchant()];
    expect(await runAdminJson(['pool', 'show', '--app-id', a.appId])).toEqual({ appId: a.appId, maxHeldSlots: 'default', maxAmountSlots: 'default' });
    expect(await runAdminJson(['pool', 'set', '--app-id', a.appId, '--amount-slots', '2', '--held-slots', '3', '--reason', 'trusted shop'])).toEqual({
      appId: a.appId,
      maxHeldSlots: 3,
      maxAmountSlots: 2,
    });
    expect((await submit(a, '55.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '55.00' } });
    expect((await submit(a, '55.00')).json).toMatchObject({ code: 0, data: { pay_usdt: '55.01' } });
    expect((await submit(a, '44.00')).json.code).toBe(0);
    expect((await submit(a, '33.00')).json).toEqual({
      code: 1010,
      message:
        "this merchant's USDT orders already hold 3 receiving slots on TRC20 (pending orders and expired ones in their cool-down), the most the operator allows " +
        "this merchant (held-slots 3); try again when one of its orders is paid, or has expired and its 60-minute cool-down has ended, or ask the operator to " +
        "raise this merchant's held-slots limit",
      data: null,
    });
    expect((await submit(b, '33.00')).json.code).toBe(0);
    const { rows } = await getDb().execute<{ action: string; reason: string }>(sql`SELECT action, reason FROM audit_log WHERE subject = ${`merchant:${a.appId}`}`);
    expect(rows).toEqual([{ action: 'merchant.usdt_pool_limits', reason: 'trusted shop' }]);
    expect(await runAdminJson(['pool', 'set', '--app-id', a.appId, '--held-slots', 'none', '--amount-slots', 'default'])).toEqual({
      appId: a.appId,
      maxHeldSlots: 'none',
      maxAmountSlots: 'default',
    });
    expect((await submit(a, '33.00')).json.code).toBe(0);
  });

  it('the health details show the pool’s pressure per amount band', async () => {
    const [a, b] = [await aMerchant(), await aMerchant()];
    await submit(a, '12.00');
    await submit(b, '12.00');
    await submit(a, '250.00');
    const response = await fetch(`${app.baseUrl}/healthz?details`, { headers: app.monitor });
    const { details } = (await response.json()) as { details: { pools: { chain: string; addresses: number; bands: Record<string, unknown>[] }[] } };
    const trc20 = details.pools.find((pool) => pool.chain === 'TRC20')!;
    expect(trc20.addresses).toBe(1);
    expect(trc20.bands.map((band) => band.band)).toEqual(['0–1', '1–10', '10–100', '100–1000', '1000+']);
    // A holds 12.00 and B 12.01 on the one address: each at its share of 12.00 and 12.01 (one slot), A at 250.00's too.
    expect(trc20.bands[2]).toEqual({ band: '10–100', heldSlots: 2, heldAmounts: 2, fullAmounts: 2, fewestFreeSlots: 0, busiestAmount: '12.00', amountsAtShare: 2 });
    expect(trc20.bands[3]).toEqual({ band: '100–1000', heldSlots: 1, heldAmounts: 1, fullAmounts: 1, fewestFreeSlots: 0, busiestAmount: '250.00', amountsAtShare: 1 });
    expect(trc20.bands[0]).toEqual({ band: '0–1', heldSlots: 0, heldAmounts: 0, fullAmounts: 0, fewestFreeSlots: 1, busiestAmount: null, amountsAtShare: 0 });
  });
});
