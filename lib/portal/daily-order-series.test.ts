import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { orders } from '../db/schema';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { receivingAddresses } from '../../test/factories';
import { aPendingUsdtOrder } from '../../test/paid-orders';
import { dailyOrderSeries, utcDayStart } from './daily-order-series';

let sequence = 0;
async function aMerchantId(): Promise<number> {
  sequence += 1;
  const { merchant } = await signUpMerchant(getDb(), {
    merchantName: 'Series shop',
    email: `series${sequence}-${process.pid}@example.com`,
    password: 'correct horse battery',
    clientAddress: `192.0.2.${sequence}`,
    now: new Date(),
  });
  return merchant.id;
}

/** An order of the merchant created (and, when given, paid) at the given times. */
async function anOrderAt(merchantId: number, createdAt: string, paidAt?: string) {
  const order = await aPendingUsdtOrder(merchantId, 'http://127.0.0.1:9/n');
  await getDb()
    .update(orders)
    .set(paidAt ? { createdAt: new Date(createdAt), status: 'paid', paidAt: new Date(paidAt) } : { createdAt: new Date(createdAt) })
    .where(eq(orders.id, order.id));
}

// A fixed "now" far from the real clock, so orders the other tests create today fall outside its window.
const NOW = new Date('2031-03-10T08:30:00Z');

beforeAll(() => receivingAddresses(1));

describe('daily order series', () => {
  it('has the 7 UTC days ending today, oldest first, zeros included', async () => {
    const merchantId = await aMerchantId();
    expect(await dailyOrderSeries(getDb(), merchantId, NOW)).toEqual(
      ['2031-03-04', '2031-03-05', '2031-03-06', '2031-03-07', '2031-03-08', '2031-03-09', '2031-03-10'].map((day) => ({ day, created: 0, paid: 0 })),
    );
  });

  it('counts orders created per day and orders paid per day (by paid time), on UTC day boundaries, for its own merchant only', async () => {
    const alice = await aMerchantId();
    const bob = await aMerchantId();
    await anOrderAt(alice, '2031-03-03T23:59:59Z'); // the day before the window
    await anOrderAt(alice, '2031-03-04T00:00:00Z'); // the window's first instant
    await anOrderAt(alice, '2031-03-06T12:00:00Z', '2031-03-06T12:05:00Z');
    await anOrderAt(alice, '2031-03-06T23:59:59Z', '2031-03-07T00:00:01Z'); // created one day, paid the next
    await anOrderAt(alice, '2031-03-10T00:00:00Z', '2031-03-10T08:00:00Z');
    await anOrderAt(alice, '2031-03-10T08:00:00Z');
    await anOrderAt(alice, '2031-03-02T10:00:00Z', '2031-03-05T10:00:00Z'); // created before the window, paid inside it
    await anOrderAt(bob, '2031-03-06T12:00:00Z', '2031-03-06T12:05:00Z');
    await anOrderAt(bob, '2031-03-10T01:00:00Z');

    const series = await dailyOrderSeries(getDb(), alice, NOW);
    expect(series.map(({ day, created, paid }) => `${day} ${created}/${paid}`)).toEqual([
      '2031-03-04 1/0',
      '2031-03-05 0/1',
      '2031-03-06 2/1',
      '2031-03-07 0/1',
      '2031-03-08 0/0',
      '2031-03-09 0/0',
      '2031-03-10 2/1',
    ]);
    expect((await dailyOrderSeries(getDb(), bob, NOW)).map(({ created, paid }) => `${created}/${paid}`)).toEqual(['0/0', '0/0', '1/1', '0/0', '0/0', '0/0', '1/0']);
  });

  it('starts the UTC day at midnight UTC whatever the hour', () => {
    expect(utcDayStart(new Date('2031-03-10T23:59:59.999Z')).toISOString()).toBe('2031-03-10T00:00:00.000Z');
    expect(utcDayStart(new Date('2031-03-10T00:00:00Z')).toISOString()).toBe('2031-03-10T00:00:00.000Z');
  });
});
