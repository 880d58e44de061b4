import { createSign } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { NotificationWorker } from '../../notifications/notification-worker';
import { notificationFieldsOf } from '../index';
import { ALIPAY_SANDBOX_SELLER_ID, alipaySandboxKeys } from './sandbox-keys';
import { findAlipayCheckout } from './checkout-view';
import { rsaKeyPair } from '../../../test/credential-keys';
import { startMerchantReceiver } from '../../../test/beds/merchant-receiver';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { ALIPAY_CALLBACK, QUERY, SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { notificationForm, paySandboxTrade } from '../../../sandbox/alipay/pay';
import { findAnyByOutTradeNo } from '../../../sandbox/alipay/store';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;

interface Order {
  platformOrderNo: string;
  merchantOrderNo: string;
  payUrl: string;
  token: string;
}

async function anOrder(overrides: Record<string, unknown> = {}): Promise<Order> {
  const fields = alipaySubmit(merchant.appId, { notifyUrl: receiver.url, amount: '25.80', attach: 'user=7&plan=gold', ...overrides });
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  return { ...json.data, merchantOrderNo: fields.merchantOrderNo as string, token: json.data.payUrl.split('/pay/')[1] };
}

/** The payer opens payUrl: the checkout's signed page-pay URL is followed to the simulated gateway. */
async function openAtAlipay(order: Order): Promise<Response> {
  const checkout = await findAlipayCheckout(getDb(), order.token);
  expect(checkout?.gatewayUrl?.startsWith(bed.alipayGatewayUrl)).toBe(true);
  return fetch(checkout!.gatewayUrl!, { redirect: 'manual' });
}

async function paidAtAlipay(order: Order) {
  expect((await openAtAlipay(order)).status).toBe(303);
  return paySandboxTrade(getDb(), { outTradeNo: order.platformOrderNo });
}

/** Signs a notification form the way Alipay does (all but sign and sign_type), independently of the simulator. */
function signNotification(fields: Record<string, string>, privateKey: string): Record<string, string> {
  const unsigned = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== 'sign'));
  const text = Object.keys(unsigned)
    .filter((name) => name !== 'sign_type' && unsigned[name] !== '')
    .sort()
    .map((name) => `${name}=${unsigned[name]}`)
    .join('&');
  return { ...unsigned, sign: createSign('RSA-SHA256').update(text, 'utf8').sign(privateKey, 'base64') };
}

async function postNotify(body: string | Record<string, string>) {
  const response = await fetch(`${bed.app.baseUrl}${ALIPAY_CALLBACK}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
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
  const { rows } = await getDb().execute<{ verdict: string; answer: string | null; raw_body: string | null; detail: string | null; channel: string }>(
    sql`SELECT verdict, answer, raw_body, detail, channel FROM upstream_callbacks WHERE out_trade_no = ${outTradeNo} ORDER BY id`,
  );
  return rows;
}

async function notificationCount(orderId: number): Promise<number> {
  const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM notifications WHERE order_id = ${orderId}`);
  return rows[0]!.count;
}

/** A genuine notification of a trade at the simulator that the test then changes (and re-signs as it says). */
async function genuineForm(order: Order): Promise<Record<string, string>> {
  await openAtAlipay(order);
  const trade = (await findAnyByOutTradeNo(getDb(), order.platformOrderNo))!;
  return notificationForm({ ...trade, status: 'TRADE_SUCCESS', paidAt: new Date() }, await alipaySandboxKeys(getDb()));
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
  receiver = await startMerchantReceiver((appId) => (appId === merchant.appId ? merchant.appSecret : undefined));
});
afterAll(async () => {
  await receiver.close();
  await bed.close();
});

describe('the payer at the simulated Alipay', () => {
  it('the checkout sends a signed page-pay request the gateway accepts, with the order\'s amount, expiry and URLs', async () => {
    const order = await anOrder({ payMethod: 'wap', productName: 'Gold plan' });
    const answer = await openAtAlipay(order);
    expect(answer.status).toBe(303);
    const trade = (await findAnyByOutTradeNo(getDb(), order.platformOrderNo))!;
    expect(answer.headers.get('location')).toBe(`cashier/${trade.tradeNo}`);
    const { rows } = await getDb().execute<{ expires_at: Date }>(sql`SELECT expires_at FROM orders WHERE order_no = ${order.platformOrderNo}`);
    expect(trade).toMatchObject({
      method: 'alipay.trade.wap.pay',
      amountMinor: 2580n,
      subject: 'Gold plan',
      status: 'WAIT_BUYER_PAY',
      notifyUrl: `${bed.app.baseUrl}/v1/api/callback/alipay`,
      returnUrl: order.payUrl,
    });
    expect(Math.floor(trade.timeExpire.getTime() / 1000)).toBe(Math.floor(new Date(rows[0]!.expires_at).getTime() / 1000));
    expect((await openAtAlipay(order)).status).toBe(303); // opening payUrl again finds the same trade
  });

  it('a request whose signature does not verify gets a visible error page', async () => {
    const order = await anOrder();
    const checkout = await findAlipayCheckout(getDb(), order.token);
    const tampered = new URL(checkout!.gatewayUrl!);
    tampered.searchParams.set('biz_content', tampered.searchParams.get('biz_content')!.replace('"25.80"', '"0.01"'));
    const answer = await fetch(tampered, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(await answer.text()).toContain('isv.invalid-signature');
    expect(await findAnyByOutTradeNo(getDb(), order.platformOrderNo)).toBeUndefined();
  });

  it('paying sends the signed notification; the order is paid once, the merchant notified with the ALIPAY fields', async () => {
    const order = await anOrder();
    const { trade, notify, returnUrl } = await paidAtAlipay(order);
    expect(notify).toMatchObject({ httpStatus: 200, body: 'success', acknowledged: true });
    expect(returnUrl!.startsWith(`${order.payUrl}?`)).toBe(true);
    expect(new URL(returnUrl!).searchParams.get('trade_no')).toBe(trade.tradeNo);

    const state = await orderState(order.platformOrderNo);
    expect(state).toMatchObject({ status: 'paid', paid_via: 'alipay-notify', trade_no: trade.tradeNo });
    expect(Math.floor(new Date(state.paid_at!).getTime() / 1000)).toBe(Math.floor(trade.paidAt!.getTime() / 1000));
    expect(await recorded(order.platformOrderNo)).toMatchObject([{ channel: 'ALIPAY', verdict: 'paid', answer: 'success' }]);

    const query = await bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, payType: 'ALIPAY' }, merchant.appSecret);
    expect(query.json.data).toEqual({
      platformOrderNo: order.platformOrderNo,
      merchantOrderNo: order.merchantOrderNo,
      amount: '25.80',
      status: 2,
      tradeNo: trade.tradeNo,
      payTime: Math.floor(new Date(state.paid_at!).getTime() / 1000),
      refundedAmount: '0.00',
    });

    expect(await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 }).runOnce()).toBeGreaterThanOrEqual(1);
    const notification = receiver.received.find((entry) => entry.form.platformOrderNo === order.platformOrderNo)!;
    expect(notification.signatureValid).toBe(true);
    expect(notification.form).toEqual({
      appId: merchant.appId,
      platformOrderNo: order.platformOrderNo,
      amount: '25.80',
      merchantOrderNo: order.merchantOrderNo,
      payType: 'ALIPAY',
      status: 'PAID',
      payTime: String(query.json.data.payTime),
      tradeNo: trade.tradeNo,
      attach: 'user=7&plan=gold',
      signature: notification.form.signature,
    });
  });

  it('a replayed notification is answered success and changes nothing', async () => {
    const order = await anOrder();
    await paidAtAlipay(order);
    const again = await paySandboxTrade(getDb(), { outTradeNo: order.platformOrderNo }); // Alipay's retry
    expect(again).toMatchObject({ newlyPaid: false, notify: { body: 'success' } });
    const [first] = await recorded(order.platformOrderNo);
    expect(await postNotify(first!.raw_body!)).toEqual({ status: 200, text: 'success' });
    expect((await recorded(order.platformOrderNo)).map((entry) => entry.verdict)).toEqual(['paid', 'duplicate', 'duplicate']);
    expect(await notificationCount((await orderState(order.platformOrderNo)).id)).toBe(1);
  });
});

describe('notifications that are refused and recorded', () => {
  it.each([
    ['signed with another key', (form: Record<string, string>) => signNotification(form, rsaKeyPair().privateKey), 'bad_signature'],
    ['amount tampered after signing', (form: Record<string, string>) => ({ ...form, total_amount: '0.01' }), 'bad_signature'],
    ['without sign', (form: Record<string, string>) => Object.fromEntries(Object.entries(form).filter(([name]) => name !== 'sign')), 'bad_signature'],
  ])('%s: fail, order unchanged', async (_name, forge, verdict) => {
    const order = await anOrder();
    const answer = await postNotify(forge(await genuineForm(order)));
    expect(answer).toEqual({ status: 200, text: 'fail' });
    expect((await orderState(order.platformOrderNo)).status).toBe('pending');
    expect(await recorded(order.platformOrderNo)).toMatchObject([{ verdict, answer: 'fail' }]);
  });

  it('genuinely signed but for another amount or another app: fail, recorded for the operator', async () => {
    const keys = await alipaySandboxKeys(getDb());
    const order = await anOrder();
    const form = await genuineForm(order);
    expect(await postNotify(signNotification({ ...form, total_amount: '0.01' }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'fail' });
    expect(await postNotify(signNotification({ ...form, app_id: '2021009999999999' }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'fail' });
    expect((await recorded(order.platformOrderNo)).map((entry) => entry.verdict)).toEqual(['amount_mismatch', 'wrong_merchant']);
    expect((await orderState(order.platformOrderNo)).status).toBe('pending');
  });

  it('a seller_id other than the credential\'s Alipay user id: fail, recorded as wrong_merchant, not paid', async () => {
    const keys = await alipaySandboxKeys(getDb());
    const order = await anOrder();
    const form = await genuineForm(order);
    expect(form.seller_id).toBe(ALIPAY_SANDBOX_SELLER_ID); // the sandbox credential records the simulator's seller
    expect(await postNotify(signNotification({ ...form, seller_id: '2088000000000001' }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'fail' });
    const { seller_id: _dropped, ...withoutSeller } = form;
    expect(await postNotify(signNotification(withoutSeller, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'fail' });
    expect(await recorded(order.platformOrderNo)).toMatchObject([
      { verdict: 'wrong_merchant', answer: 'fail', detail: `seller_id 2088000000000001 is not the credential's ${ALIPAY_SANDBOX_SELLER_ID}` },
      { verdict: 'wrong_merchant', answer: 'fail' },
    ]);
    expect((await orderState(order.platformOrderNo)).status).toBe('pending');
    expect(await postNotify(form)).toEqual({ status: 200, text: 'success' });
    expect((await orderState(order.platformOrderNo)).status).toBe('paid');
  });

  it('a credential that records no Alipay user id does not check seller_id', async () => {
    const keys = await alipaySandboxKeys(getDb());
    const order = await anOrder();
    await getDb().execute(sql`UPDATE upstream_credentials SET seller_id = NULL WHERE id = (SELECT credential_id FROM orders WHERE order_no = ${order.platformOrderNo})`);
    try {
      const form = await genuineForm(order);
      expect(await postNotify(signNotification({ ...form, seller_id: '2088000000000001' }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'success' });
      expect((await orderState(order.platformOrderNo)).status).toBe('paid');
    } finally {
      await getDb().execute(sql`UPDATE upstream_credentials SET seller_id = ${ALIPAY_SANDBOX_SELLER_ID} WHERE id = ${merchant.credentialId}`);
    }
  });

  it('an unknown order or a body that is not a form: fail, recorded', async () => {
    const keys = await alipaySandboxKeys(getDb());
    const form = await genuineForm(await anOrder());
    expect(await postNotify(signNotification({ ...form, out_trade_no: 'A00000000000000000000' }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'fail' });
    expect(await recorded('A00000000000000000000')).toMatchObject([{ verdict: 'unknown_order', answer: 'fail' }]);
    expect(await postNotify('')).toEqual({ status: 200, text: 'fail' });
  });

  it('a waiting trade is ignored (success); a payment for a closed order is recorded as late and not paid', async () => {
    const keys = await alipaySandboxKeys(getDb());
    const waiting = await anOrder();
    const form = await genuineForm(waiting);
    expect(await postNotify(signNotification({ ...form, trade_status: 'WAIT_BUYER_PAY' }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'success' });
    expect(await recorded(waiting.platformOrderNo)).toMatchObject([{ verdict: 'ignored' }]);

    const late = await anOrder();
    const lateForm = await genuineForm(late); // the payer opened Alipay in time, then paid after the order closed
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = now() WHERE order_no = ${late.platformOrderNo}`);
    expect(await postNotify(lateForm)).toEqual({ status: 200, text: 'success' });
    expect(await recorded(late.platformOrderNo)).toMatchObject([{ verdict: 'late_payment', answer: 'success' }]);
    expect((await orderState(late.platformOrderNo)).status).toBe('closed');
  });

  it('a payment Alipay accepted after time_expire for an order still pending (not yet closed at Alipay) is paid', async () => {
    const keys = await alipaySandboxKeys(getDb());
    const order = await anOrder();
    const form = await genuineForm(order);
    const { rows } = await getDb().execute<{ at: Date }>(sql`SELECT expires_at AS at FROM orders WHERE order_no = ${order.platformOrderNo}`);
    const paidAt = new Date(new Date(rows[0]!.at).getTime() - 5 * 60_000); // stated as Beijing time below
    await getDb().execute(sql`UPDATE orders SET expires_at = ${new Date(paidAt.getTime() - 5 * 60_000).toISOString()} WHERE order_no = ${order.platformOrderNo}`);
    const beijing = paidAt.toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
    expect(await postNotify(signNotification({ ...form, gmt_payment: beijing }, keys.alipayPrivateKey))).toEqual({ status: 200, text: 'success' });
    expect(await recorded(order.platformOrderNo)).toMatchObject([{ verdict: 'paid', answer: 'success' }]);
    expect(await orderState(order.platformOrderNo)).toMatchObject({ status: 'paid', paid_via: 'alipay-notify' });
  });
});
