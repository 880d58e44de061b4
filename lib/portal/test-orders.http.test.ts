import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { orders } from '../db/schema';
import { calendarDayInZone } from '../i18n/time-zone';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { QUERY, startSandboxTestBed, SUBMIT } from '../../test/beds/sandboxes';
import { payOrder } from '../../test/paid-orders';
import { yhtSubmit } from '../../test/yht-sandbox';
import { listMerchantOrders } from './list-merchant-orders';
import type { MerchantContext } from './merchant-context';
import { merchantDashboard } from './merchant-dashboard';
import { merchantStatement, STATEMENT_COLUMNS, statementRange } from './merchant-statement';
import { parseOrderFilters } from './order-filters';
import { createTestOrder } from './test-order';

/**
 * Test orders: an order the portal's test-order form creates is stored as a test order by its insert, one the
 * merchant's server submits over the open API is not; the portal's list leaves test orders out unless asked, and the
 * dashboard's figures and the statement never count them (unless the statement is asked for them).
 */
const TIME_ZONE = 'Asia/Shanghai';
const NOTIFY = 'https://merchant.example/notify';
let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let context: MerchantContext;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  context = { accountId: 0, email: 'tests@example.com', merchantId: merchant.id, teamRole: 'owner', mustSetUpSecondFactor: false, secondFactorResetAt: null, appId: merchant.appId, merchantName: merchant.name, orderPermission: true, timeZone: TIME_ZONE };
  await receivingAddresses(2);
});
afterAll(() => bed.close());

async function submitLive(fields: Record<string, unknown>): Promise<string> {
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  return json.data.orderNo as string;
}

async function statementText(includeTest?: boolean): Promise<string> {
  const today = calendarDayInZone(new Date(), TIME_ZONE);
  const range = statementRange(today, today, TIME_ZONE);
  if ('refused' in range) throw new Error('range refused');
  const header = Object.fromEntries(STATEMENT_COLUMNS.map((column) => [column, column])) as Record<(typeof STATEMENT_COLUMNS)[number], string>;
  let text = '';
  for await (const chunk of merchantStatement(getDb(), { merchantId: merchant.id, timeZone: TIME_ZONE, ...range, header, rowTypes: { order: 'order', refund: 'refund' }, includeTest })) text += chunk;
  return text;
}

describe('test orders', () => {
  let live: { usdt: string; yht: string };
  let test: { usdt: string; yht: string };

  it('are marked when the portal creates them, never when the open API does', async () => {
    live = {
      usdt: await submitLive({ appId: merchant.appId, merchantOrderNo: `LIVE-U-${Date.now()}`, chainType: '1', pay_usdt: '10.00', notifyUrl: NOTIFY }),
      yht: await submitLive(yhtSubmit(merchant.appId, { payMoney: '20.00' })),
    };
    test = {
      usdt: (await createTestOrder(getDb(), context, { channel: 'USDT', payMethod: 'TRC20', amount: '3.00', notifyUrl: NOTIFY })).orderNo,
      yht: (await createTestOrder(getDb(), context, { channel: 'YHT', payMethod: 'aliPay', amount: '4.00', notifyUrl: NOTIFY })).orderNo,
    };
    const rows = await getDb()
      .select({ orderNo: orders.orderNo, isTest: orders.isTest })
      .from(orders)
      .where(inArray(orders.orderNo, [...Object.values(live), ...Object.values(test)]));
    expect(Object.fromEntries(rows.map((row) => [row.orderNo, row.isTest]))).toEqual({ [live.usdt]: false, [live.yht]: false, [test.usdt]: true, [test.yht]: true });

    // The open API answers a test order as any other (its query and notifications are unchanged).
    const [testYht] = await getDb().select().from(orders).where(eq(orders.orderNo, test.yht));
    const { json } = await bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: testYht!.merchantOrderNo, payType: 'YHT' }, merchant.appSecret);
    expect(json).toMatchObject({ code: 0, data: { orderNo: test.yht } });
  });

  it('are left out of the portal list by default, shown with ?test=include, alone with ?test=only', async () => {
    const listed = async (params: Record<string, string>) => (await listMerchantOrders(getDb(), context, parseOrderFilters(params))).rows.map((row) => [row.orderNo, row.isTest]);
    expect(await listed({})).toEqual([[live.yht, false], [live.usdt, false]]);
    expect(await listed({ test: 'include' })).toEqual([[test.yht, true], [test.usdt, true], [live.yht, false], [live.usdt, false]]);
    expect(await listed({ test: 'only' })).toEqual([[test.yht, true], [test.usdt, true]]);
    expect(await listed({ test: 'bogus' })).toEqual([[live.yht, false], [live.usdt, false]]);
    expect(await listed({ test: 'only', channel: 'USDT' })).toEqual([[test.usdt, true]]);
  });

  it('never count in the dashboard figures, its chart or its paid totals', async () => {
    const now = new Date();
    const ids = await getDb().select({ id: orders.id, orderNo: orders.orderNo }).from(orders).where(inArray(orders.orderNo, [live.usdt, test.usdt, test.yht]));
    for (const row of ids) await payOrder(row.id, now);
    const dashboard = await merchantDashboard(getDb(), context, now, TIME_ZONE);
    expect(dashboard.today).toEqual({ orders: 2, paid: 1 });
    expect(dashboard.week).toMatchObject({ orders: 2, paid: 1, closed: 0 });
    expect(dashboard.successRate).toBe(100);
    expect(dashboard.days.at(-1)).toMatchObject({ created: 2, paid: 1 });
    expect(dashboard.paidTotals).toEqual([{ channel: 'USDT', currency: 'USDT', today: '10.00', week: '10.00', weekCount: 1 }]);
  });

  it('are in the statement only when it is asked for them', async () => {
    const byDefault = await statementText();
    const withTests = await statementText(true);
    for (const orderNo of Object.values(live)) {
      expect(byDefault).toContain(orderNo);
      expect(withTests).toContain(orderNo);
    }
    for (const orderNo of Object.values(test)) {
      expect(byDefault).not.toContain(orderNo);
      expect(withTests).toContain(orderNo);
    }
  });
});
