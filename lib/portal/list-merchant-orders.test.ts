import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { getDb } from '../db/client';
import { orders } from '../db/schema';
import { setMerchantTimeZone } from '../merchants/merchant-time-zone';
import { receivingAddresses } from '../../test/factories';
import { aPendingUsdtOrder } from '../../test/paid-orders';
import { listMerchantOrders } from './list-merchant-orders';
import { merchantContextOf, type MerchantContext } from './merchant-context';
import { parseOrderFilters } from './order-filters';

let sequence = 0;
async function aPortalMerchant(timeZone: string): Promise<MerchantContext> {
  sequence += 1;
  const { accountId, merchant } = await signUpMerchant(getDb(), {
    merchantName: 'Zone shop',
    email: `zone${sequence}-${process.pid}@example.com`,
    password: 'correct horse battery',
    clientAddress: `192.0.2.${sequence}`,
    now: new Date(),
  });
  await setMerchantTimeZone(getDb(), { merchantId: merchant.id, timeZone, actor: 'test', now: new Date() });
  return (await merchantContextOf(getDb(), accountId))!;
}

/** One order of the merchant, created at `createdAt`. */
async function anOrderCreatedAt(context: MerchantContext, createdAt: string): Promise<string> {
  const order = await aPendingUsdtOrder(context.merchantId, 'http://127.0.0.1:9/notify');
  await getDb().update(orders).set({ createdAt: new Date(createdAt) }).where(eq(orders.id, order.id));
  return order.orderNo;
}

async function shownFor(context: MerchantContext, from: string, to: string): Promise<string[]> {
  return (await listMerchantOrders(getDb(), context, parseOrderFilters({ from, to }))).rows.map((row) => row.orderNo);
}

beforeAll(() => receivingAddresses(1));

describe('order list date filters: calendar days in the merchant’s zone, both ends included', () => {
  it('in Asia/Shanghai an order created at 2026-11-22T17:30Z is on 2026-11-23', async () => {
    const shanghai = await aPortalMerchant('Asia/Shanghai');
    expect(shanghai.timeZone).toBe('Asia/Shanghai');
    const evening = await anOrderCreatedAt(shanghai, '2026-11-22T17:30:00Z');
    expect(await shownFor(shanghai, '2026-11-23', '2026-11-23')).toEqual([evening]);
    expect(await shownFor(shanghai, '2026-11-22', '2026-11-22')).toEqual([]);
  });

  it('in UTC the same instant is on 2026-11-22', async () => {
    const utc = await aPortalMerchant('UTC');
    const evening = await anOrderCreatedAt(utc, '2026-11-22T17:30:00Z');
    expect(await shownFor(utc, '2026-11-22', '2026-11-22')).toEqual([evening]);
    expect(await shownFor(utc, '2026-11-23', '2026-11-23')).toEqual([]);
  });

  it('a day runs from the zone’s midnight to the next, the first instant in and the next midnight out', async () => {
    const shanghai = await aPortalMerchant('Asia/Shanghai');
    const before = await anOrderCreatedAt(shanghai, '2026-11-22T15:59:59.999Z'); // 23:59:59.999 on the 22nd in Shanghai
    const first = await anOrderCreatedAt(shanghai, '2026-11-22T16:00:00Z'); // 00:00 on the 23rd
    const last = await anOrderCreatedAt(shanghai, '2026-11-23T15:59:59.999Z'); // 23:59:59.999 on the 23rd
    const next = await anOrderCreatedAt(shanghai, '2026-11-23T16:00:00Z'); // 00:00 on the 24th
    expect((await shownFor(shanghai, '2026-11-23', '2026-11-23')).sort()).toEqual([first, last].sort());
    expect((await shownFor(shanghai, '2026-11-22', '2026-11-24')).sort()).toEqual([before, first, last, next].sort());
    // Only one end given: from that day on, or up to that day.
    expect((await listMerchantOrders(getDb(), shanghai, parseOrderFilters({ from: '2026-11-24' }))).rows.map((row) => row.orderNo)).toEqual([next]);
    expect((await listMerchantOrders(getDb(), shanghai, parseOrderFilters({ to: '2026-11-22' }))).rows.map((row) => row.orderNo)).toEqual([before]);
  });

  it('follows a zone with daylight saving: America/New_York days start at 05:00Z in winter and 04:00Z in summer', async () => {
    const newYork = await aPortalMerchant('America/New_York');
    const winterMidnight = await anOrderCreatedAt(newYork, '2026-11-23T05:00:00Z');
    const winterLate = await anOrderCreatedAt(newYork, '2026-11-23T04:59:59Z'); // still the 22nd
    const summerMidnight = await anOrderCreatedAt(newYork, '2026-07-01T04:00:00Z');
    expect(await shownFor(newYork, '2026-11-23', '2026-11-23')).toEqual([winterMidnight]);
    expect(await shownFor(newYork, '2026-11-22', '2026-11-22')).toEqual([winterLate]);
    expect(await shownFor(newYork, '2026-07-01', '2026-07-01')).toEqual([summerMidnight]);
  });
});
