import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { expireUsdtOrders } from './chain/expire-usdt-orders';
import { recordTransfers } from './chain/record-transfers';
import { RAW_UNITS_PER_CENT } from './chain/chain-config';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/open-api-client';
import { markOrderPaid } from '../../orders/order-status';
import { usdtSlotCooldownMinutes } from './slot-cooldown';

const SUBMIT = '/v1/api/open/order/submit';
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

/** The order's data on success; `{ code: 1010 }` when no slot is free; anything else fails the test. */
async function submit(payUsdt: string): Promise<{ code: number; orderNo?: string; pay_usdt?: string }> {
  counter += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `COOL-${counter}`, pay_usdt: payUsdt, chainType: '1', notifyUrl: 'https://merchant.example/n' };
  const { json } = await app.signedPost(SUBMIT, fields, merchant.appSecret);
  if (json.code !== 0 && json.code !== 1010) throw new Error(JSON.stringify(json));
  return json.code === 0 ? { code: 0, ...json.data } : json;
}

async function orderRow(orderNo: string | undefined) {
  const { rows } = await getDb().execute<{ id: string; status: string; holds_slot: boolean; receiving_address_id: string }>(
    sql`SELECT id, status, holds_slot, receiving_address_id FROM orders WHERE order_no = ${orderNo ?? ''}`,
  );
  return rows[0]!;
}

/** The order's window ended this many minutes ago (the expiry job may or may not have run since). */
async function endedAgo(orderNo: string | undefined, minutes: number) {
  await getDb().execute(sql`
    UPDATE orders SET created_at = now() - make_interval(mins => ${minutes + 30}), expires_at = now() - make_interval(mins => ${minutes})
    WHERE order_no = ${orderNo ?? ''}`);
}

beforeAll(async () => {
  app = await startTestApp();
  merchant = await aMerchant({ wholePool: true });
});
afterAll(() => app.close());
// Each test has one receiving address of its own, so every slot it sees is on that address.
beforeEach(async () => {
  await getDb().execute(sql`UPDATE receiving_addresses SET enabled = false`);
  await receivingAddresses(1);
});
afterEach(() => {
  delete process.env.USDT_SLOT_COOLDOWN_MINUTES;
});

describe('slot cool-down after a USDT order expires', () => {
  it('gives an expired order’s (address, amount) to no new order for an hour, so a late transfer stays with the old order', async () => {
    const old = await submit('50.00');
    await endedAgo(old.orderNo, 5);

    const next = await submit('50.00');
    expect(next.pay_usdt).toBe('50.01');
    const oldRow = await orderRow(old.orderNo);
    expect(oldRow.holds_slot).toBe(true);

    // The old payer's transfer arrives late: it is linked to the old order as late and pays nobody else.
    const [recorded] = await recordTransfers(getDb(), [
      {
        transactionId: `late-${Date.now()}`,
        eventIndex: 0,
        blockNumber: 1,
        blockTime: new Date(),
        from: 'TOldPayer',
        to: 'TPool',
        receivingAddressId: Number(oldRow.receiving_address_id),
        valueRaw: 5000n * RAW_UNITS_PER_CENT,
      },
    ]);
    expect(recorded!.verdict).toBe('late');
    expect(recorded!.orderId).toBe(Number(oldRow.id));
    expect((await orderRow(next.orderNo)).status).toBe('pending');
  });

  it('holds under concurrent submits: none of 8 racing submits takes the cooling slot', async () => {
    const old = await submit('51.00');
    await endedAgo(old.orderNo, 1);
    const results = await Promise.all(Array.from({ length: 8 }, () => submit('51.00')));
    expect(results.filter((json) => json.code === 0).map((json) => json.pay_usdt)).toEqual(['51.01']);
    expect(results.filter((json) => json.code === 1010)).toHaveLength(7);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE pay_amount_minor = 5100`);
    expect(rows[0]!.count).toBe(1);
  });

  it('frees the slot once the cool-down has passed, closing the old order if the expiry job had not', async () => {
    const old = await submit('52.00');
    await endedAgo(old.orderNo, 61);
    const next = await submit('52.00');
    expect(next.pay_usdt).toBe('52.00');
    expect(await orderRow(old.orderNo)).toMatchObject({ status: 'closed', holds_slot: false });
  });

  it('lets racing submits free a cooled slot once and give it to one of them', async () => {
    const old = await submit('53.00');
    await endedAgo(old.orderNo, 61);
    const results = await Promise.all(Array.from({ length: 8 }, () => submit('53.00')));
    expect(results.filter((json) => json.code === 0).map((json) => json.pay_usdt).sort()).toEqual(['53.00', '53.01']);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE holds_slot AND pay_amount_minor IN (5300, 5301)`);
    expect(rows[0]!.count).toBe(2);
  });

  it('takes its length from USDT_SLOT_COOLDOWN_MINUTES', async () => {
    process.env.USDT_SLOT_COOLDOWN_MINUTES = '10';
    const old = await submit('54.00');
    await endedAgo(old.orderNo, 9);
    expect((await submit('54.00')).pay_usdt).toBe('54.01');
    await endedAgo(old.orderNo, 11);
    expect((await submit('54.00')).pay_usdt).toBe('54.00');

    process.env.USDT_SLOT_COOLDOWN_MINUTES = 'soon';
    expect(() => usdtSlotCooldownMinutes()).toThrow(/USDT_SLOT_COOLDOWN_MINUTES/);
  });

  it('the expiry job closes an order at window end, keeps its slot through the cool-down, then frees it', async () => {
    const old = await submit('56.00');
    await endedAgo(old.orderNo, 5);
    await expireUsdtOrders(getDb(), new Date());
    expect(await orderRow(old.orderNo)).toMatchObject({ status: 'closed', holds_slot: true });
    expect((await submit('56.00')).pay_usdt).toBe('56.01');

    await endedAgo(old.orderNo, 61);
    await expireUsdtOrders(getDb(), new Date());
    expect(await orderRow(old.orderNo)).toMatchObject({ status: 'closed', holds_slot: false });
    expect((await submit('56.00')).pay_usdt).toBe('56.00');
  });

  it('frees the slot of a paid order at once', async () => {
    const old = await submit('57.00');
    await markOrderPaid(getDb(), { orderId: Number((await orderRow(old.orderNo)).id), via: 'manual', paidAt: new Date() });
    expect((await submit('57.00')).pay_usdt).toBe('57.00');
  });
});
