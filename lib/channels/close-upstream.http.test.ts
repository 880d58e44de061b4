import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { addSandboxCredential } from '../cli/credential-add-command';
import { aMerchant } from '../../test/factories';
import { alipaySubmit, anAlipayMerchant } from '../../test/alipay-sandbox';
import { yhtSubmit } from '../../test/yht-sandbox';
import { QUERY, SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { paySandboxTrade, SandboxPayRefused } from '../../sandbox/alipay/pay';
import { closeWaiting as closeWaitingAtAlipay, findAnyByOutTradeNo as findAlipayTrade } from '../../sandbox/alipay/store';
import { runSandbox } from '../../test/run-sandbox';
import { orders } from '../db/schema';
import { findBoundCredential } from '../credentials/find-bound-credential';
import { alipaySdkFor, alipayTimestamp } from './alipay/client';
import { alipayConfig } from './alipay/config';
import { paySandboxWechatOrder, SandboxWechatPayRefused } from '../../sandbox/wechat/pay';
import { closeOrder as closeSandboxWechatOrder, findAnyByOutTradeNo as findWechatOrder } from '../../sandbox/wechat/store';
import { paySandboxOrder } from '../../sandbox/yht/pay';
import { findAlipayCheckout } from './alipay/checkout-view';

const CLOSE = '/v1/api/open/order/close';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
type Shop = Awaited<ReturnType<typeof aMerchant>>;
let alipayShop: Shop;
let wechatShop: Shop;
let yhtShop: Shop;
let counter = 0;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  alipayShop = await anAlipayMerchant();
  wechatShop = await aMerchant();
  await addSandboxCredential(getDb(), { appId: wechatShop.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  yhtShop = await aMerchant();
});
afterAll(() => bed.close());

async function submitted(shop: Shop, fields: Record<string, unknown>) {
  const { json } = await bed.app.signedPost(SUBMIT, fields, shop.appSecret);
  expect(json.code).toBe(0);
  const orderNo: string = json.data.platformOrderNo ?? json.data.orderNo;
  return { orderNo, merchantOrderNo: fields.merchantOrderNo as string, payToken: String(json.data.payUrl).split('/pay/')[1]! };
}

const alipayOrder = () => submitted(alipayShop, alipaySubmit(alipayShop.appId, { amount: '18.00' }));
function wechatOrder() {
  counter += 1;
  return submitted(wechatShop, {
    appId: wechatShop.appId,
    merchantOrderNo: `WXC-${process.pid}-${counter}-${Date.now()}`,
    payType: 'WECHAT',
    payMethod: 'native',
    amount: '25.80',
    productName: 'VIP month',
    notifyUrl: 'https://merchant.example/notify',
  });
}
const yhtOrder = () => submitted(yhtShop, yhtSubmit(yhtShop.appId));

const close = (shop: Shop, merchantOrderNo: string) => bed.app.signedPost(CLOSE, { appId: shop.appId, merchantOrderNo }, shop.appSecret);
const query = (shop: Shop, merchantOrderNo: string, payType: string) => bed.app.signedPost(QUERY, { appId: shop.appId, merchantOrderNo, payType }, shop.appSecret);

async function state(orderNo: string) {
  const { rows } = await getDb().execute<{ status: string; close_reason: string | null; paid_via: string | null; notifications: number; audit: string | null }>(sql`
    SELECT status, close_reason, paid_via, (SELECT count(*)::int FROM notifications n WHERE n.order_id = o.id) AS notifications,
           (SELECT after->>'upstream' FROM audit_log WHERE subject = 'order:' || o.order_no AND action = 'order.close') AS audit
    FROM orders o WHERE order_no = ${orderNo}`);
  return rows[0]!;
}

describe('close on ALIPAY: alipay.trade.close first', () => {
  it('a trade the payer opened is closed at Alipay, then here; Alipay then refuses to take the payment', async () => {
    const order = await alipayOrder();
    const checkout = await findAlipayCheckout(getDb(), order.payToken);
    expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
    const { json } = await close(alipayShop, order.merchantOrderNo);
    expect(json).toMatchObject({ code: 0, message: 'ok', data: { platformOrderNo: order.orderNo, status: 3 } });
    expect((await findAlipayTrade(getDb(), order.orderNo))?.status).toBe('TRADE_CLOSED');
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', close_reason: 'closed', audit: expect.stringContaining('alipay.trade.close') });
    await expect(paySandboxTrade(getDb(), { outTradeNo: order.orderNo })).rejects.toBeInstanceOf(SandboxPayRefused);
    expect((await close(alipayShop, order.merchantOrderNo)).json).toEqual(json);
  });

  it('a trade never opened (ACQ.TRADE_NOT_EXIST) is closed here only', async () => {
    const order = await alipayOrder();
    expect((await close(alipayShop, order.merchantOrderNo)).json.code).toBe(0);
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', audit: expect.stringContaining('ACQ.TRADE_NOT_EXIST') });
  });

  it('a trade paid at Alipay whose notification was lost (ACQ.REASON_TRADE_STATUS_INVALID, then the query) becomes paid, notified, never closed', async () => {
    const order = await alipayOrder();
    const checkout = await findAlipayCheckout(getDb(), order.payToken);
    await fetch(checkout!.gatewayUrl!, { redirect: 'manual' });
    await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    const { json } = await close(alipayShop, order.merchantOrderNo);
    expect(json).toEqual({ code: 1012, message: `order ${order.orderNo} is paid: only a pending order can be closed`, data: null });
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'alipay-query', notifications: 1, audit: null });
    expect((await query(alipayShop, order.merchantOrderNo, 'ALIPAY')).json.data.status).toBe(2);
  });
});

describe('close on ALIPAY answered ACQ.REASON_ILLEGAL_STATUS (the other documented code for a trade not waiting), then the query', () => {
  /** A trade the payer opened, whose close the simulated Alipay is told (through its CLI) to answer ACQ.REASON_ILLEGAL_STATUS. */
  async function answeredIllegalStatus(then: (orderNo: string) => Promise<unknown>) {
    const order = await alipayOrder();
    const checkout = await findAlipayCheckout(getDb(), order.payToken);
    expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
    await then(order.orderNo);
    const planned = await runSandbox(['alipay', 'close-plan', '--order', order.orderNo, '--plan', 'illegal_status', '--json']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    expect(JSON.parse(planned.stdout)).toEqual({ order: order.orderNo, plan: 'illegal_status' });
    // What Alipay answers the close itself, asked directly.
    const [row] = await getDb().select().from(orders).where(eq(orders.orderNo, order.orderNo));
    const credential = (await findBoundCredential(getDb(), row!))!;
    const answer = await alipaySdkFor(alipayConfig(), credential).exec('alipay.trade.close', { bizContent: { out_trade_no: order.orderNo }, ...alipayTimestamp() }, { validateSign: true });
    expect(answer).toMatchObject({ code: '40004', subCode: 'ACQ.REASON_ILLEGAL_STATUS' });
    return order;
  }

  it('a paid trade whose notification was lost is found by alipay.trade.query: paid, notified, never closed', async () => {
    const order = await answeredIllegalStatus((orderNo) => paySandboxTrade(getDb(), { outTradeNo: orderNo }, { notify: false }));
    const { json } = await close(alipayShop, order.merchantOrderNo);
    expect(json).toEqual({ code: 1012, message: `order ${order.orderNo} is paid: only a pending order can be closed`, data: null });
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'alipay-query', notifications: 1, audit: null });
  });

  it('a trade Alipay closed already (alipay.trade.query answers TRADE_CLOSED) is closed here', async () => {
    const order = await answeredIllegalStatus(async (orderNo) => closeWaitingAtAlipay(getDb(), (await findAlipayTrade(getDb(), orderNo))!));
    const { json } = await close(alipayShop, order.merchantOrderNo);
    expect(json).toMatchObject({ code: 0, data: { platformOrderNo: order.orderNo, status: 3 } });
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', close_reason: 'closed', notifications: 0, audit: expect.stringContaining('alipay.trade.query answered TRADE_CLOSED') });
  });

  it('the close plan needs a trade, and names its choices', async () => {
    const order = await alipayOrder();
    const none = await runSandbox(['alipay', 'close-plan', '--order', order.orderNo, '--plan', 'illegal_status']);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain(`no sandbox alipay trade ${order.orderNo} (the payer has not opened its payUrl)`);
    const wrong = await runSandbox(['alipay', 'close-plan', '--order', order.orderNo, '--plan', 'ILLEGAL']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain('option --plan must be one of illegal_status, none');
  });
});

describe('close on WECHAT: the close API, then the query', () => {
  it('closes at WeChat Pay and here; WeChat then refuses to take the payment; a repeat answers the same', async () => {
    const order = await wechatOrder();
    const { json } = await close(wechatShop, order.merchantOrderNo);
    expect(json).toMatchObject({ code: 0, message: 'ok', data: { platformOrderNo: order.orderNo, status: 3 } });
    expect((await findWechatOrder(getDb(), order.orderNo))?.tradeState).toBe('CLOSED');
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', close_reason: 'closed', audit: expect.stringContaining('CLOSED') });
    await expect(paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo })).rejects.toBeInstanceOf(SandboxWechatPayRefused);
    expect((await close(wechatShop, order.merchantOrderNo)).json).toEqual(json);
  });

  it('an order WeChat closed already (ORDER_CLOSED, then the query answers CLOSED) is closed here', async () => {
    const order = await wechatOrder();
    await closeSandboxWechatOrder(getDb(), (await findWechatOrder(getDb(), order.orderNo))!);
    const { json } = await close(wechatShop, order.merchantOrderNo);
    expect(json).toMatchObject({ code: 0, message: 'ok', data: { platformOrderNo: order.orderNo, status: 3 } });
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', close_reason: 'closed', audit: expect.stringContaining('CLOSED') });
  });

  it('an order paid at WeChat (ORDERPAID, then the query answers SUCCESS) becomes paid through the paid path, never closed', async () => {
    const order = await wechatOrder();
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    const { json } = await close(wechatShop, order.merchantOrderNo);
    expect(json).toEqual({ code: 1012, message: `order ${order.orderNo} is paid: only a pending order can be closed`, data: null });
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'wechat-poll', notifications: 1, audit: null });
    expect((await query(wechatShop, order.merchantOrderNo, 'WECHAT')).json.data.status).toBe(2);
  });
});

describe('close on YHT: no close in its protocol, so the query, then here', () => {
  it('closes here; a payment YHT still takes later is recorded as late and never credited', async () => {
    const order = await yhtOrder();
    const { json } = await close(yhtShop, order.merchantOrderNo);
    expect(json).toMatchObject({ code: 0, message: 'success', data: { orderNo: order.orderNo, status: '2' } });
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', audit: expect.stringContaining('YHT has no close') });
    const paid = await paySandboxOrder(getDb(), { outTradeNo: order.orderNo });
    expect(paid.callback?.httpStatus).toBe(200);
    const { rows } = await getDb().execute<{ verdict: string }>(sql`SELECT verdict FROM upstream_callbacks WHERE out_trade_no = ${order.orderNo}`);
    expect(rows).toEqual([{ verdict: 'late_payment' }]);
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', notifications: 0 });
  });

  it('an order YHT reports paid (its callback lost) becomes paid, never closed', async () => {
    const order = await yhtOrder();
    await paySandboxOrder(getDb(), { outTradeNo: order.orderNo }, { sendCallback: false });
    expect((await close(yhtShop, order.merchantOrderNo)).json.code).toBe(1012);
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'yht-query', notifications: 1 });
  });
});
