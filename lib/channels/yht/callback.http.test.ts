import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { NotificationWorker } from '../../notifications/notification-worker';
import { notificationFieldsOf } from '../index';
import { aMerchant } from '../../../test/factories';
import { startMerchantReceiver } from '../../../test/beds/merchant-receiver';
import { yhtSignature, yhtSubmit } from '../../../test/yht-sandbox';
import { QUERY, SUBMIT, YHT_CALLBACK, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { paySandboxOrder } from '../../../sandbox/yht/pay';
import { runAdminJson } from '../../cli/run-admin-for-tests';
import { YHT_SANDBOX_KEY, YHT_SANDBOX_MERCHANT_NO } from './config';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;

interface Order {
  orderNo: string;
  merchantOrderNo: string;
  tradeNo: string;
}

async function anOrder(overrides: Record<string, unknown> = {}): Promise<Order> {
  const fields = yhtSubmit(merchant.appId, { notifyUrl: receiver.url, payMoney: '25.80', attach: 'user=7&plan=gold', ...overrides });
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const { rows } = await getDb().execute<{ trade_no: string }>(sql`SELECT trade_no FROM sandbox_yht_orders WHERE out_trade_no = ${json.data.orderNo}`);
  return { orderNo: json.data.orderNo, merchantOrderNo: fields.merchantOrderNo as string, tradeNo: rows[0]!.trade_no };
}

function callbackFields(order: Order, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    mchNo: YHT_SANDBOX_MERCHANT_NO,
    outTradeNo: order.orderNo,
    tradeNo: order.tradeNo,
    amount: '25.80',
    payMethod: 'aliPay',
    status: 'SUCCESS',
    payTime: String(Math.floor(Date.now() / 1000) - 5),
    nonceStr: 'n0nce',
    ...overrides,
  };
}

const signed = (fields: Record<string, string>, key = YHT_SANDBOX_KEY) => ({ ...fields, sign: yhtSignature(fields, key) });

async function postCallback(body: string | Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(`${bed.app.baseUrl}${YHT_CALLBACK}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
  });
  return { status: response.status, text: await response.text() };
}

async function orderState(orderNo: string) {
  const { rows } = await getDb().execute<{ id: number; status: string; paid_via: string | null; trade_no: string | null; paid_at: string | null }>(
    sql`SELECT id::int AS id, status, paid_via, trade_no, paid_at FROM orders WHERE order_no = ${orderNo}`,
  );
  return rows[0]!;
}

async function recorded(outTradeNo: string) {
  const { rows } = await getDb().execute<{ verdict: string; answer: string | null; raw_body: string | null; order_id: number | null; detail: string | null }>(
    sql`SELECT verdict, answer, raw_body, order_id::int AS order_id, detail FROM upstream_callbacks WHERE out_trade_no = ${outTradeNo} ORDER BY id`,
  );
  return rows;
}

async function notificationCount(orderId: number): Promise<number> {
  const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM notifications WHERE order_id = ${orderId}`);
  return rows[0]!.count;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  receiver = await startMerchantReceiver((appId) => (appId === merchant.appId ? merchant.appSecret : undefined));
});
afterAll(async () => {
  await receiver.close();
  await bed.close();
});
beforeEach(() => {
  receiver.received.length = 0;
});

describe('YHT callback', () => {
  it('a payment at the sandbox cashier pays the order, and the merchant gets the signed YHT notification', async () => {
    const order = await anOrder();
    const { callback } = await paySandboxOrder(getDb(), { tradeNo: order.tradeNo });
    expect(callback).toMatchObject({ httpStatus: 200, body: 'success', acknowledged: true });

    const state = await orderState(order.orderNo);
    expect(state).toMatchObject({ status: 'paid', paid_via: 'yht-callback', trade_no: order.tradeNo });
    expect(await recorded(order.orderNo)).toMatchObject([{ verdict: 'paid', answer: 'success', order_id: state.id }]);
    const query = await bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, payType: 'YHT' }, merchant.appSecret);
    expect(query.json.data.status).toBe('1');

    expect(await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 }).runOnce()).toBeGreaterThanOrEqual(1);
    const notification = receiver.received.find((entry) => entry.form.orderNo === order.orderNo)!;
    expect(notification.signatureValid).toBe(true);
    expect(notification.form).toEqual({
      appId: merchant.appId,
      orderNo: order.orderNo,
      payMoney: '25.80',
      merchantOrderNo: order.merchantOrderNo,
      payType: 'YHT',
      status: 'PAID',
      payTime: String(Math.floor(new Date(state.paid_at!).getTime() / 1000)),
      tradeNo: order.tradeNo,
      attach: 'user=7&plan=gold',
      signature: notification.form.signature,
    });
  });

  it('a repeated callback is answered success and changes nothing', async () => {
    const order = await anOrder();
    await paySandboxOrder(getDb(), { tradeNo: order.tradeNo });
    const again = await paySandboxOrder(getDb(), { tradeNo: order.tradeNo }); // the sandbox sends the callback again
    expect(again).toMatchObject({ newlyPaid: false, callback: { body: 'success' } });
    const replay = await postCallback(signed(callbackFields(order)));
    expect(replay).toEqual({ status: 200, text: 'success' });
    const state = await orderState(order.orderNo);
    expect(await notificationCount(state.id)).toBe(1);
    expect((await recorded(order.orderNo)).map((entry) => entry.verdict)).toEqual(['paid', 'duplicate', 'duplicate']);
  });

  it('concurrent copies of one callback pay once', async () => {
    const order = await anOrder();
    const body = signed(callbackFields(order));
    const answers = await Promise.all(Array.from({ length: 6 }, () => postCallback(body)));
    expect(answers.every((answer) => answer.text === 'success')).toBe(true);
    const verdicts = (await recorded(order.orderNo)).map((entry) => entry.verdict).sort();
    expect(verdicts).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'paid']);
    expect(await notificationCount((await orderState(order.orderNo)).id)).toBe(1);
  });

  it.each([
    ['signed with another key', (order: Order) => signed(callbackFields(order), 'not-the-key'), 'bad_signature'],
    ['tampered after signing', (order: Order) => ({ ...signed(callbackFields(order, { amount: '0.01' })), amount: '25.80' }), 'bad_signature'],
    ['without sign', (order: Order) => callbackFields(order), 'bad_signature'],
    ['for another amount', (order: Order) => signed(callbackFields(order, { amount: '0.01' })), 'amount_mismatch'],
    ['for another merchant number', (order: Order) => signed(callbackFields(order, { mchNo: 'YHT-OTHER' })), 'wrong_merchant'],
    ['for another upstream order', (order: Order) => signed(callbackFields(order, { tradeNo: 'YHT000' })), 'trade_no_mismatch'],
    ['without tradeNo', (order: Order) => signed(callbackFields(order, { tradeNo: '' })), 'malformed'],
  ])('a callback %s is answered fail, recorded, and pays nothing', async (_name, build, verdict) => {
    const order = await anOrder();
    const answer = await postCallback(build(order));
    expect(answer).toEqual({ status: 200, text: 'fail' });
    const state = await orderState(order.orderNo);
    expect(state.status).toBe('pending');
    expect(await notificationCount(state.id)).toBe(0);
    const [entry] = await recorded(order.orderNo);
    expect(entry).toMatchObject({ verdict, answer: 'fail' });
    expect(entry!.raw_body).toContain(`outTradeNo=${order.orderNo}`);
  });

  it('a callback for an order that does not exist is answered fail and recorded', async () => {
    const answer = await postCallback(signed(callbackFields({ orderNo: 'Y00000000000000000000000', merchantOrderNo: '', tradeNo: 'YHT1' })));
    expect(answer.text).toBe('fail');
    expect(await recorded('Y00000000000000000000000')).toMatchObject([{ verdict: 'unknown_order', answer: 'fail', order_id: null }]);
  });

  it('malformed bodies are answered fail and recorded', async () => {
    const rejected = sql`SELECT count(*)::int AS count FROM upstream_callbacks WHERE verdict IN ('malformed', 'bad_signature')`;
    const before = await getDb().execute<{ count: number }>(rejected);
    const order = await anOrder();
    const fields = signed(callbackFields(order));
    const twice = `${new URLSearchParams(fields).toString()}&amount=0.01`;
    for (const body of ['', 'not a form', twice]) expect((await postCallback(body)).text).toBe('fail');
    const after = await getDb().execute<{ count: number }>(rejected);
    expect(after.rows[0]!.count - before.rows[0]!.count).toBe(3);
    expect((await orderState(order.orderNo)).status).toBe('pending');
    const wrongMethod = await fetch(`${bed.app.baseUrl}${YHT_CALLBACK}`);
    expect(wrongMethod.status).toBe(405);
  });

  it('a genuine callback with another status is acknowledged and ignored', async () => {
    const order = await anOrder();
    expect((await postCallback(signed(callbackFields(order, { status: 'CLOSED' })))).text).toBe('success');
    expect((await orderState(order.orderNo)).status).toBe('pending');
    expect(await recorded(order.orderNo)).toMatchObject([{ verdict: 'ignored', answer: 'success' }]);
  });

  it('a payment for an order already closed is acknowledged, recorded as late for the operator, and pays nothing', async () => {
    const order = await anOrder();
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = now() WHERE order_no = ${order.orderNo}`);
    expect((await postCallback(signed(callbackFields(order)))).text).toBe('success');
    const state = await orderState(order.orderNo);
    expect(state.status).toBe('closed');
    expect(await notificationCount(state.id)).toBe(0);
    expect(await recorded(order.orderNo)).toMatchObject([{ verdict: 'late_payment', answer: 'success', order_id: state.id }]);
  });

  it('judges lateness by when the payer paid: a delayed callback for a payment inside the window still pays', async () => {
    const inTime = await anOrder();
    const late = await anOrder();
    const now = Math.floor(Date.now() / 1000);
    for (const order of [inTime, late]) {
      await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '10 minutes' WHERE order_no = ${order.orderNo}`);
    }
    expect((await postCallback(signed(callbackFields(inTime, { payTime: String(now - 11 * 60) })))).text).toBe('success');
    expect((await orderState(inTime.orderNo)).status).toBe('paid');
    expect((await postCallback(signed(callbackFields(late, { payTime: String(now - 60) })))).text).toBe('success');
    expect((await orderState(late.orderNo)).status).toBe('pending');
    expect(await recorded(late.orderNo)).toMatchObject([{ verdict: 'late_payment', answer: 'success' }]);
  });

  it('the operator lists what needs attention with `npm run admin -- callback list`', async () => {
    const order = await anOrder();
    await postCallback(signed(callbackFields(order, { amount: '1.00' })));
    await paySandboxOrder(getDb(), { tradeNo: order.tradeNo });
    const attention = (await runAdminJson(['callback', 'list', '--channel', 'YHT', '--attention'])) as { callbacks: Record<string, unknown>[] };
    expect(attention.callbacks.find((entry) => entry.outTradeNo === order.orderNo)).toMatchObject({ kind: 'callback', verdict: 'amount_mismatch', answer: 'fail' });
    expect(attention.callbacks.every((entry) => !['paid', 'duplicate', 'ignored'].includes(entry.verdict as string))).toBe(true);
    const history = (await runAdminJson(['callback', 'list', '--order', order.orderNo])) as { callbacks: Record<string, unknown>[] };
    expect(history.callbacks.map((entry) => entry.verdict)).toEqual(['paid', 'amount_mismatch']);
    expect(history.callbacks[0]).toMatchObject({ orderStatus: 'paid', answer: 'success' });
  });
});
