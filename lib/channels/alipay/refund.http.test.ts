import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { NotificationWorker } from '../../notifications/notification-worker';
import { pollProcessingRefunds } from '../../refunds/poll-refunds';
import { channelNamed, notificationFieldsOf } from '../index';
import { findAlipayCheckout } from './checkout-view';
import { startMerchantReceiver } from '../../../test/beds/merchant-receiver';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { QUERY, SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { receivingAddresses } from '../../../test/factories';
import { aPendingUsdtOrder, payOrder } from '../../../test/paid-orders';
import { paySandboxTrade } from '../../../sandbox/alipay/pay';
import { planTradeRefund, refundsOfTrade } from '../../../sandbox/alipay/refund';
import { runSandbox } from '../../../test/run-sandbox';
import { EXAMPLE_MERCHANT_ORDER_NO } from '../../contract/examples';
import { refundQueryExample, refundSubmitExample } from '../../refunds/refund-examples';

const REFUND_SUBMIT = '/v1/api/open/refund/submit';
const REFUND_QUERY = '/v1/api/open/refund/query';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;
let orderReceiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let refundReceiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let sequence = 0;

interface PaidOrder {
  platformOrderNo: string;
  merchantOrderNo: string;
}

/** An ALIPAY order paid at the simulated Alipay (the payer opens payUrl, pays; the notification marks it paid). */
async function aPaidOrder(amount = '50.00', merchantOrderNo?: string): Promise<PaidOrder> {
  const fields = alipaySubmit(merchant.appId, { notifyUrl: orderReceiver.url, amount, ...(merchantOrderNo ? { merchantOrderNo } : {}) });
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
  expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
  await paySandboxTrade(getDb(), { outTradeNo: json.data.platformOrderNo });
  return { platformOrderNo: json.data.platformOrderNo, merchantOrderNo: fields.merchantOrderNo as string };
}

function refundFields(order: PaidOrder, overrides: Record<string, string | undefined> = {}) {
  sequence += 1;
  const fields: Record<string, string | undefined> = {
    appId: merchant.appId,
    merchantOrderNo: order.merchantOrderNo,
    merchantRefundNo: `RF-${process.pid}-${sequence}-${Date.now()}`,
    refundAmount: '10.00',
    reason: 'goods returned',
    notifyUrl: refundReceiver.url,
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  return fields as Record<string, string> & { merchantRefundNo: string };
}

const refund = (fields: Record<string, string>, secret = merchant.appSecret) => bed.app.signedPost(REFUND_SUBMIT, fields, secret).then(({ json }) => json);
const queryRefund = (merchantRefundNo: string) => bed.app.signedPost(REFUND_QUERY, { appId: merchant.appId, merchantRefundNo }, merchant.appSecret).then(({ json }) => json);
const queryOrder = (order: PaidOrder) =>
  bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, payType: 'ALIPAY' }, merchant.appSecret).then(({ json }) => json);

async function orderSums(order: PaidOrder) {
  const { rows } = await getDb().execute<{ reserved: string; refunded: string; paid: string }>(
    sql`SELECT refund_reserved_minor::text AS reserved, refunded_minor::text AS refunded, pay_amount_minor::text AS paid FROM orders WHERE order_no = ${order.platformOrderNo}`,
  );
  return rows[0]!;
}

/** Delivers every notice due now (a destination gets a few at a time per claim). */
async function deliverNotices() {
  const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 });
  while ((await worker.runOnce()) > 0);
}
const refundsOf = (name: string) => channelNamed(name)?.refunds;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
  const secretOf = (appId: string) => (appId === merchant.appId ? merchant.appSecret : undefined);
  orderReceiver = await startMerchantReceiver(secretOf);
  refundReceiver = await startMerchantReceiver(secretOf);
});
afterAll(async () => {
  await Promise.all([orderReceiver.close(), refundReceiver.close()]);
  await bed.close();
});
afterEach(() => {
  delete process.env.ALIPAY_TIMEOUT_MS;
  delete process.env.SANDBOX_SLOW_ANSWER_MS;
});

describe('refund submit and query on ALIPAY', () => {
  it('a partial refund moves the money at Alipay once and the order query gains the refunded total', async () => {
    const order = await aPaidOrder('50.00');
    const fields = refundFields(order, { refundAmount: '12.34' });
    const answer = await refund(fields);
    expect(answer).toMatchObject({ code: 0, message: 'success' });
    expect(answer.data).toMatchObject({
      merchantRefundNo: fields.merchantRefundNo,
      platformOrderNo: order.platformOrderNo,
      merchantOrderNo: order.merchantOrderNo,
      payType: 'ALIPAY',
      refundAmount: '12.34',
      status: 'succeeded',
      failureReason: null,
      refundedAmount: '12.34',
    });
    const atAlipay = await refundsOfTrade(getDb(), order.platformOrderNo);
    expect(atAlipay.map((row) => [row.outRequestNo, row.amountMinor, row.status])).toEqual([[answer.data.refundNo, 1234n, 'REFUND_SUCCESS']]);

    const queried = await queryOrder(order);
    expect(queried.data).toMatchObject({ status: 2, amount: '50.00', refundedAmount: '12.34' });
    expect((await queryRefund(fields.merchantRefundNo)).data).toEqual(answer.data);
  });

  it('the same merchantRefundNo answers the same refund; with another field it is refused, naming the field', async () => {
    const order = await aPaidOrder();
    const fields = refundFields(order);
    const first = await refund(fields);
    expect(await refund(fields)).toEqual(first);
    expect(await refund({ ...fields, refundAmount: '11.00' })).toEqual({ code: 1007, message: `refundAmount differs from the original refund ${fields.merchantRefundNo}`, data: null });
    expect((await refund({ ...fields, reason: 'other' })).message).toContain('reason differs');
    expect(await refundsOfTrade(getDb(), order.platformOrderNo)).toHaveLength(1);
  });

  it('refuses what cannot be refunded, each with its own code', async () => {
    const order = await aPaidOrder('20.00');
    expect(await refund(refundFields(order, { refundAmount: '20.01' }))).toEqual({
      code: 1023,
      message: `refundAmount 20.01 exceeds what is left to refund of order ${order.merchantOrderNo}: 20.00 of 20.00`,
      data: null,
    });
    expect((await refund(refundFields(order, { refundAmount: '0' }))).code).toBe(1003);
    expect((await refund(refundFields(order, { merchantRefundNo: 'has space' }))).message).toBe('merchantRefundNo must be 1 to 64 letters, digits or _-|*@');
    expect((await refund(refundFields(order, { merchantOrderNo: 'NOPE-1' }))).code).toBe(1006);
    expect((await refund(refundFields(order, { notifyUrl: 'ftp://x' }))).code).toBe(1001);
    expect((await refund(refundFields(order), 'wrong-secret-wrong-secret-wrong-secret')).code).toBe(1002);
    expect(await queryRefund('NEVER-MADE')).toEqual({ code: 1024, message: 'refund not found', data: null });

    const pending = alipaySubmit(merchant.appId, { notifyUrl: orderReceiver.url });
    await bed.app.signedPost(SUBMIT, pending, merchant.appSecret);
    const unpaid = await refund(refundFields({ platformOrderNo: '', merchantOrderNo: pending.merchantOrderNo as string }));
    expect(unpaid).toMatchObject({ code: 1021, message: `order ${pending.merchantOrderNo as string} is pending: only a paid order can be refunded` });
  });

  it('20 concurrent partial refunds whose sum would exceed the order: the total refunded never does', async () => {
    const order = await aPaidOrder('50.00');
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(refundFields(order, { refundAmount: '7.00' }))));
    const accepted = answers.filter((answer) => answer.code === 0);
    expect(accepted).toHaveLength(7); // 7 × 7.00 = 49.00 ≤ 50.00 < 8 × 7.00
    expect(answers.filter((answer) => answer.code === 1023)).toHaveLength(13);
    expect(accepted.every((answer) => answer.data.status === 'succeeded')).toBe(true);
    expect(await orderSums(order)).toEqual({ reserved: '4900', refunded: '4900', paid: '5000' });
    const atAlipay = await refundsOfTrade(getDb(), order.platformOrderNo);
    expect(atAlipay.reduce((sum, row) => sum + row.amountMinor, 0n)).toBe(4900n);
  });

  it('a refund whose answer times out is sent again with the same out_request_no and amount: the money moves once', async () => {
    const order = await aPaidOrder('30.00');
    await planTradeRefund(getDb(), order.platformOrderNo, 'timeout_once');
    process.env.ALIPAY_TIMEOUT_MS = '800';
    process.env.SANDBOX_SLOW_ANSWER_MS = '2000';
    const answer = await refund(refundFields(order, { refundAmount: '5.00' }));
    expect(answer.data).toMatchObject({ status: 'succeeded', refundAmount: '5.00', refundedAmount: '5.00' });
    const atAlipay = await refundsOfTrade(getDb(), order.platformOrderNo);
    expect(atAlipay.map((row) => [row.outRequestNo, row.amountMinor])).toEqual([[answer.data.refundNo, 500n]]);
    const { rows } = await getDb().execute<{ request_count: number }>(sql`SELECT request_count FROM refunds WHERE refund_no = ${answer.data.refundNo}`);
    expect(rows[0]!.request_count).toBeGreaterThanOrEqual(2);
  });

  it('a refund Alipay accepts without moving money stays processing until the poller finds it done; its notice goes only to the refund notifyUrl', async () => {
    const order = await aPaidOrder('40.00');
    await deliverNotices();
    orderReceiver.received.length = 0;
    refundReceiver.received.length = 0;
    // Told through the sandbox CLI, as a person testing an integration would.
    const planned = await runSandbox(['alipay', 'refund-plan', '--order', order.platformOrderNo, '--plan', 'processing', '--json']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const fields = refundFields(order, { refundAmount: '15.00' });
    const answer = await refund(fields);
    expect(answer.data).toMatchObject({ status: 'processing', refundedAmount: '0.00' });

    await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE refund_no = ${answer.data.refundNo}`);
    await pollProcessingRefunds(getDb(), new Date(), refundsOf);
    expect((await queryRefund(fields.merchantRefundNo)).data.status).toBe('processing');

    const settled = await runSandbox(['alipay', 'refund-settle', '--refund', answer.data.refundNo, '--json']);
    expect(JSON.parse(settled.stdout)).toEqual({ refund: answer.data.refundNo, status: 'REFUND_SUCCESS', successTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE refund_no = ${answer.data.refundNo}`);
    expect(await pollProcessingRefunds(getDb(), new Date(), refundsOf)).toMatchObject({ finished: 1 });
    expect((await queryRefund(fields.merchantRefundNo)).data).toMatchObject({ status: 'succeeded', refundedAmount: '15.00' });

    await deliverNotices();
    // The payment handler hears only payments (other orders' may arrive meanwhile); the refund's URL hears the refund.
    expect(orderReceiver.received.every(({ form }) => form.status === 'PAID' && form.notifyType === undefined)).toBe(true);
    const notices = refundReceiver.received.filter(({ form }) => form.merchantRefundNo === fields.merchantRefundNo);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.signatureValid).toBe(true);
    expect(notices[0]!.form).toMatchObject({
      appId: merchant.appId,
      notifyType: 'refund',
      merchantRefundNo: fields.merchantRefundNo,
      refundAmount: '15.00',
      refundedAmount: '15.00',
      status: 'succeeded',
      payType: 'ALIPAY',
    });
  });

  it('a refund Alipay refuses fails with its reason, frees its amount and is notified as failed', async () => {
    const order = await aPaidOrder('10.00');
    await deliverNotices();
    refundReceiver.received.length = 0;
    await planTradeRefund(getDb(), order.platformOrderNo, 'fail');
    const failing = refundFields(order, { refundAmount: '10.00' });
    const answer = await refund(failing);
    expect(answer.data).toMatchObject({ status: 'failed', failureReason: "ACQ.SELLER_BALANCE_NOT_ENOUGH: the merchant's Alipay balance is not enough for the refund" });
    expect(await orderSums(order)).toEqual({ reserved: '0', refunded: '0', paid: '1000' });
    const again = refundFields(order, { refundAmount: '10.00' });
    expect((await refund(again)).data.status).toBe('succeeded');
    await deliverNotices();
    const statusOf = (no: string) => refundReceiver.received.filter(({ form }) => form.merchantRefundNo === no).map(({ form }) => form.status);
    expect([statusOf(failing.merchantRefundNo), statusOf(again.merchantRefundNo)]).toEqual([['failed'], ['succeeded']]);
  });

  it('a USDT order is not refunded by the service: 1020 says how a USDT refund is made', async () => {
    await receivingAddresses(1);
    const order = await aPendingUsdtOrder(merchant.id, orderReceiver.url);
    await payOrder(order.id, new Date());
    const answer = await refund(refundFields({ platformOrderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo }, { refundAmount: '1.00' }));
    expect(answer).toEqual({
      code: 1020,
      message:
        'USDT refunds are not made by this service, which holds no keys: send the USDT from your own wallet, then record the refund (amount, transaction id, note) on the order page of the portal',
      data: null,
    });
  });

  it('the documented refund examples (API reference, OpenAPI) are accepted as written', async () => {
    await aPaidOrder('50.00', EXAMPLE_MERCHANT_ORDER_NO);
    const submitted = await bed.app.signedPost(REFUND_SUBMIT, refundSubmitExample(merchant.appId), merchant.appSecret);
    expect(submitted.json).toMatchObject({ code: 0, data: { merchantOrderNo: EXAMPLE_MERCHANT_ORDER_NO, refundAmount: '10.00', status: 'succeeded' } });
    const queried = await bed.app.signedPost(REFUND_QUERY, refundQueryExample(merchant.appId), merchant.appSecret);
    expect(queried.json.data).toEqual(submitted.json.data);
  });
});
