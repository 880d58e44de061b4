import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { findAlipayCheckout } from './checkout-view';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { serveWebHandler } from '../../../test/web-handler-server';
import { handleGateway } from '../../../sandbox/alipay/gateway';
import { paySandboxTrade } from '../../../sandbox/alipay/pay';
import { findAnyByOutTradeNo } from '../../../sandbox/alipay/store';
import { alipayConfig } from './config';
import { pollPendingAlipayOrders } from './poll-pending-orders';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;

const MINUTE = 60_000;

async function anOrder(payMethod: 'web' | 'wap' = 'web'): Promise<{ orderNo: string; token: string }> {
  const { json } = await bed.app.signedPost(SUBMIT, alipaySubmit(merchant.appId, { amount: '18.00', payMethod }), merchant.appSecret);
  expect(json.code).toBe(0);
  return { orderNo: json.data.platformOrderNo, token: json.data.payUrl.split('/pay/')[1] };
}

async function openAtAlipay(order: { token: string }) {
  const checkout = await findAlipayCheckout(getDb(), order.token);
  expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
}

async function state(orderNo: string) {
  const { rows } = await getDb().execute<{ id: number; status: string; paid_via: string | null; trade_no: string | null; check_after: Date | null; notifications: number }>(sql`
    SELECT id::int AS id, status, paid_via, trade_no, upstream_check_after AS check_after,
           (SELECT count(*)::int FROM notifications n WHERE n.order_id = o.id) AS notifications
    FROM orders o WHERE order_no = ${orderNo}`);
  return rows[0]!;
}

async function recorded(orderNo: string) {
  const { rows } = await getDb().execute<{ kind: string; verdict: string }>(sql`SELECT kind, verdict FROM upstream_callbacks WHERE out_trade_no = ${orderNo} ORDER BY id`);
  return rows;
}

const poll = (now: Date, config = alipayConfig()) => pollPendingAlipayOrders(getDb(), now, { config });

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterAll(() => bed.close());

describe('ALIPAY poller', () => {
  it('finds a payment whose notification was lost (verified alipay.trade.query) and pays the order once', async () => {
    const order = await anOrder();
    await openAtAlipay(order);
    const { trade } = await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    await poll(new Date(Date.now() + 2 * MINUTE));
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'alipay-query', trade_no: trade.tradeNo, notifications: 1 });
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'paid' }]);
    await poll(new Date(Date.now() + 5 * MINUTE));
    expect((await state(order.orderNo)).notifications).toBe(1);
  });

  it('leaves a new order alone for a minute, then asks at most once a minute and once more at the end of the window', async () => {
    const order = await anOrder();
    const created = Date.now();
    const { rows } = await getDb().execute<{ at: Date }>(sql`SELECT created_at AS at FROM orders WHERE order_no = ${order.orderNo}`);
    const firstCheck = new Date(rows[0]!.at).getTime() + MINUTE;
    await poll(new Date(created + 10_000));
    expect(new Date((await state(order.orderNo)).check_after!).getTime()).toBe(firstCheck); // stored at creation, not yet due

    await poll(new Date(created + 2 * MINUTE)); // not opened at Alipay: ACQ.TRADE_NOT_EXIST, still payable
    const first = await state(order.orderNo);
    expect(first.status).toBe('pending');
    expect(new Date(first.check_after!).getTime()).toBe(created + 3 * MINUTE);

    await poll(new Date(created + 2 * MINUTE + 30_000)); // not due: nothing changes
    expect(new Date((await state(order.orderNo)).check_after!).getTime()).toBe(created + 3 * MINUTE);

    await poll(new Date(created + 29.5 * MINUTE));
    const expiresAt = (await getDb().execute<{ at: Date }>(sql`SELECT expires_at AS at FROM orders WHERE order_no = ${order.orderNo}`)).rows[0]!.at;
    expect(new Date((await state(order.orderNo)).check_after!).getTime()).toBe(new Date(expiresAt).getTime());
  });

  it('at the end of the window closes the trade at Alipay (alipay.trade.close), then the order: never opened, or opened and left', async () => {
    const never = await anOrder();
    const left = await anOrder();
    await openAtAlipay(left);
    await poll(new Date(Date.now() + 31 * MINUTE));
    expect((await state(never.orderNo)).status).toBe('closed'); // ACQ.TRADE_NOT_EXIST: nothing to close at Alipay
    expect(await findAnyByOutTradeNo(getDb(), never.orderNo)).toBeUndefined();
    expect((await state(left.orderNo)).status).toBe('closed');
    expect((await state(left.orderNo)).notifications).toBe(0);
    // Closed at Alipay: the payer who kept the cashier open can no longer pay.
    expect(await findAnyByOutTradeNo(getDb(), left.orderNo)).toMatchObject({ status: 'TRADE_CLOSED' });
    await expect(paySandboxTrade(getDb(), { outTradeNo: left.orderNo }, { notify: false })).rejects.toThrow('is closed');
  });

  it('a page-pay trade paid after time_expire, before the close, is marked paid and never closed', async () => {
    const order = await anOrder('web');
    await openAtAlipay(order);
    const { rows } = await getDb().execute<{ at: Date }>(sql`SELECT expires_at AS at FROM orders WHERE order_no = ${order.orderNo}`);
    const expiresAt = new Date(rows[0]!.at).getTime();
    // Page pay may not honour time_expire: the payer pays five minutes after it, and the notification is lost.
    const { trade } = await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify: false, now: new Date(expiresAt + 5 * MINUTE) });
    expect(trade.status).toBe('TRADE_SUCCESS');
    await poll(new Date(expiresAt + 6 * MINUTE));
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'alipay-query', trade_no: trade.tradeNo, notifications: 1 });
    expect(await findAnyByOutTradeNo(getDb(), order.orderNo)).toMatchObject({ status: 'TRADE_SUCCESS' });
  });

  it('a payment that beats the close (ACQ.TRADE_STATUS_ERROR) is marked paid, never closed', async () => {
    const order = await anOrder();
    await openAtAlipay(order);
    // The payer pays between the poller's query and its alipay.trade.close.
    const racing = await serveWebHandler(async (request) => {
      if (new URL(request.url).searchParams.get('method') === 'alipay.trade.close') {
        await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify: false });
      }
      return handleGateway(request, getDb());
    });
    try {
      await poll(new Date(Date.now() + 31 * MINUTE), { ...alipayConfig(), gatewayUrl: racing.url });
    } finally {
      await racing.close();
    }
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'alipay-query', notifications: 1 });
    expect(await findAnyByOutTradeNo(getDb(), order.orderNo)).toMatchObject({ status: 'TRADE_SUCCESS' });
  });

  it('an amount Alipay reports differently is recorded once for the operator and not paid', async () => {
    const order = await anOrder();
    await openAtAlipay(order);
    await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    await getDb().execute(sql`UPDATE sandbox_alipay_trades SET amount_minor = 1 WHERE out_trade_no = ${order.orderNo}`);
    await poll(new Date(Date.now() + 2 * MINUTE));
    await poll(new Date(Date.now() + 4 * MINUTE));
    expect((await state(order.orderNo)).status).toBe('pending');
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'amount_mismatch' }]);
  });

  it('when Alipay cannot be reached the order stays pending, and is closed an hour after its window', async () => {
    const order = await anOrder();
    const unreachable = { ...alipayConfig(), gatewayUrl: 'http://127.0.0.1:9/gateway.do', timeoutMs: 2_000 };
    const summary = await poll(new Date(Date.now() + 31 * MINUTE), unreachable);
    expect(summary.failed).toBeGreaterThanOrEqual(1);
    expect((await state(order.orderNo)).status).toBe('pending');
    await poll(new Date(Date.now() + 92 * MINUTE), unreachable);
    expect((await state(order.orderNo)).status).toBe('closed');
  });
});
