import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { orders } from '../db/schema';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { receivingAddresses } from '../../test/factories';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { merchantContextOf, type MerchantContext } from './merchant-context';
import { merchantDashboard } from './merchant-dashboard';

let sequence = 0;
async function aPortalMerchant(): Promise<MerchantContext> {
  sequence += 1;
  const { accountId } = await signUpMerchant(getDb(), {
    merchantName: 'Shop',
    email: `dash${sequence}-${process.pid}@example.com`,
    password: 'correct horse battery',
    clientAddress: `192.0.2.${sequence}`,
    now: new Date(),
  });
  return (await merchantContextOf(getDb(), accountId))!;
}

beforeAll(() => receivingAddresses(1));

describe('dashboard', () => {
  it('counts today and the last 7 days, sums paid amounts per channel and currency, and only for its own merchant', async () => {
    const alice = await aPortalMerchant();
    const bob = await aPortalMerchant();
    const now = new Date();
    const paid1 = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/n', { amountMinor: 1050n });
    const paid2 = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/n', { amountMinor: 200n });
    const closed = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/n', { amountMinor: 300n });
    await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/n', { amountMinor: 400n });
    const old = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/n', { amountMinor: 500n });
    const bobs = await aPendingUsdtOrder(bob.merchantId, 'http://127.0.0.1:9/n', { amountMinor: 9900n });
    await payOrder(paid1.id, now);
    await payOrder(paid2.id, now);
    await payOrder(bobs.id, now);
    await getDb().update(orders).set({ status: 'closed', closedAt: now }).where(eq(orders.id, closed.id));
    const eightDaysAgo = new Date(now.getTime() - 8 * 86_400_000);
    await getDb().update(orders).set({ createdAt: eightDaysAgo, status: 'paid', paidAt: eightDaysAgo }).where(eq(orders.id, old.id));

    const dashboard = await merchantDashboard(getDb(), alice, now, 'UTC');
    expect(dashboard.today).toEqual({ orders: 4, paid: 2 });
    expect(dashboard.week).toMatchObject({ orders: 4, paid: 2, closed: 1 });
    expect(dashboard.successRate).toBe(66.7);
    expect(dashboard.paidTotals).toEqual([{ channel: 'USDT', currency: 'USDT', today: '12.50', week: '12.50', weekCount: 2 }]);
    // The chart's series: 7 UTC days ending today; today holds Alice's 4 orders created and 2 paid, Bob's are not there.
    expect(dashboard.days).toHaveLength(7);
    expect(dashboard.days.at(-1)).toEqual({ day: now.toISOString().slice(0, 10), created: 4, paid: 2 });
    expect(dashboard.days.slice(0, 6).every((day) => day.created === 0 && day.paid === 0)).toBe(true);

    const fresh = await aPortalMerchant();
    expect(await merchantDashboard(getDb(), fresh, now, 'UTC')).toMatchObject({ today: { orders: 0, paid: 0 }, successRate: undefined, paidTotals: [] });
  });
});
