import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { orders } from '../db/schema';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { receivingAddresses } from '../../test/factories';
import { aPendingUsdtOrder } from '../../test/paid-orders';
import { dailyOrderSeries, seriesWindow } from './daily-order-series';

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
    expect(await dailyOrderSeries(getDb(), merchantId, NOW, 'UTC')).toEqual(
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

    const series = await dailyOrderSeries(getDb(), alice, NOW, 'UTC');
    expect(series.map(({ day, created, paid }) => `${day} ${created}/${paid}`)).toEqual([
      '2031-03-04 1/0',
      '2031-03-05 0/1',
      '2031-03-06 2/1',
      '2031-03-07 0/1',
      '2031-03-08 0/0',
      '2031-03-09 0/0',
      '2031-03-10 2/1',
    ]);
    expect((await dailyOrderSeries(getDb(), bob, NOW, 'UTC')).map(({ created, paid }) => `${created}/${paid}`)).toEqual(['0/0', '0/0', '1/1', '0/0', '0/0', '0/0', '1/0']);
  });

  it('starts the UTC day at midnight UTC whatever the hour', () => {
    expect(seriesWindow(new Date('2031-03-10T23:59:59.999Z'), 'UTC', 1).from.toISOString()).toBe('2031-03-10T00:00:00.000Z');
    expect(seriesWindow(new Date('2031-03-10T00:00:00Z'), 'UTC', 1).from.toISOString()).toBe('2031-03-10T00:00:00.000Z');
  });

  it('counts by the calendar days of the zone the merchant reads: Asia/Shanghai days begin at 16:00 UTC the day before', async () => {
    const merchantId = await aMerchantId();
    // NOW is 16:30 on 10 March in Shanghai; its window is 4–10 March Shanghai time, from 2031-03-03T16:00Z.
    expect(seriesWindow(NOW, 'Asia/Shanghai', 7)).toEqual({
      labels: ['2031-03-04', '2031-03-05', '2031-03-06', '2031-03-07', '2031-03-08', '2031-03-09', '2031-03-10'],
      from: new Date('2031-03-03T16:00:00Z'),
    });
    await anOrderAt(merchantId, '2031-03-03T15:59:59Z'); // 3 March 23:59:59 in Shanghai: before the window
    await anOrderAt(merchantId, '2031-03-03T16:00:00Z'); // 4 March 00:00 in Shanghai: the window's first instant
    await anOrderAt(merchantId, '2031-03-09T17:00:00Z', '2031-03-09T23:00:00Z'); // 10 March 01:00 and 07:00 in Shanghai (9 March in UTC)
    const series = await dailyOrderSeries(getDb(), merchantId, NOW, 'Asia/Shanghai');
    expect(series.map(({ day, created, paid }) => `${day} ${created}/${paid}`)).toEqual([
      '2031-03-04 1/0',
      '2031-03-05 0/0',
      '2031-03-06 0/0',
      '2031-03-07 0/0',
      '2031-03-08 0/0',
      '2031-03-09 0/0',
      '2031-03-10 1/1',
    ]);
  });

  it('finds the start of a day across a daylight-saving change', () => {
    // New York moves to summer time on 9 March 2031 at 02:00: that day starts at 05:00Z, the next at 04:00Z.
    expect(seriesWindow(new Date('2031-03-09T12:00:00Z'), 'America/New_York', 1).from.toISOString()).toBe('2031-03-09T05:00:00.000Z');
    expect(seriesWindow(new Date('2031-03-10T12:00:00Z'), 'America/New_York', 1).from.toISOString()).toBe('2031-03-10T04:00:00.000Z');
  });
});
