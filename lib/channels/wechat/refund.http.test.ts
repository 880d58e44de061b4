import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant } from '../../../test/factories';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { startMerchantReceiver } from '../../../test/beds/merchant-receiver';
import { aPaidWechatOrder } from '../../../test/paid-wechat-order';
import { planWechatRefund, sandboxWechatRefundsOf, settleSandboxWechatRefund } from '../../../sandbox/wechat/refund';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { getDb } from '../../db/client';
import { orders } from '../../db/schema';
import { NotificationWorker } from '../../notifications/notification-worker';
import { pollProcessingRefunds } from '../../refunds/poll-refunds';
import { channelNamed, notificationFieldsOf } from '../index';
import { callWechat, WechatUpstreamError } from './client';
import { wechatConfig } from './config';
import { wechatAccountFor } from './platform-certificates';
import { eq } from 'drizzle-orm';

const REFUND_SUBMIT = '/v1/api/open/refund/submit';
const REFUND_QUERY = '/v1/api/open/refund/query';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let refundReceiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let counter = 0;

interface PaidOrder {
  platformOrderNo: string;
  merchantOrderNo: string;
}

const aPaidOrder = (amount = '30.00'): Promise<PaidOrder> => aPaidWechatOrder(bed.app, merchant, amount, 'WXR');

function refundFields(order: PaidOrder, overrides: Record<string, string> = {}) {
  counter += 1;
  return { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `WRF-${process.pid}-${counter}-${Date.now()}`, refundAmount: '5.00', notifyUrl: refundReceiver.url, ...overrides };
}

const refund = (fields: Record<string, string>) => bed.app.signedPost(REFUND_SUBMIT, fields, merchant.appSecret).then(({ json }) => json);
const queryRefund = (merchantRefundNo: string) => bed.app.signedPost(REFUND_QUERY, { appId: merchant.appId, merchantRefundNo }, merchant.appSecret).then(({ json }) => json);
const refundsOf = (name: string) => channelNamed(name)?.refunds;

/** A refund request sent to the sandbox directly with the merchant's keys: the judge's own rules, without our checks. */
async function rawRefund(order: PaidOrder, body: Record<string, unknown>) {
  const [row] = await getDb().select().from(orders).where(eq(orders.orderNo, order.platformOrderNo));
  const credential = (await findBoundCredential(getDb(), row!))!;
  const config = wechatConfig();
  const account = await wechatAccountFor(getDb(), credential, config, new Date());
  try {
    await callWechat(config, account, { operation: 'refund', method: 'POST', pathWithQuery: '/v3/refund/domestic/refunds', body: { out_trade_no: order.platformOrderNo, ...body } });
    return 'accepted';
  } catch (error) {
    if (error instanceof WechatUpstreamError) return error.reason;
    throw error;
  }
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  refundReceiver = await startMerchantReceiver(merchant.appSecret);
});
afterAll(async () => {
  await refundReceiver.close();
  await bed.close();
});
afterEach(() => {
  delete process.env.WECHAT_TIMEOUT_MS;
  delete process.env.SANDBOX_SLOW_ANSWER_MS;
});

describe('WECHAT refunds against the WeChat Pay sandbox', () => {
  it('a refund WeChat Pay finishes at once succeeds with its refund_id; the order total was sent as amount.total', async () => {
    const order = await aPaidOrder('30.00');
    const answer = await refund(refundFields(order, { refundAmount: '7.50', reason: '退货' }));
    expect(answer.data).toMatchObject({ status: 'succeeded', refundAmount: '7.50', refundedAmount: '7.50', upstreamRefundId: expect.stringMatching(/^50\d+$/) });
    const atWechat = await sandboxWechatRefundsOf(getDb(), order.platformOrderNo);
    expect(atWechat.map((row) => [row.outRefundNo, row.amountMinor, row.totalMinor, row.reason])).toEqual([[answer.data.refundNo, 750n, 3000n, '退货']]);
  });

  it('processing, then the REFUND.SUCCESS notification through the callback route settles it and the merchant is notified', async () => {
    const order = await aPaidOrder();
    await planWechatRefund(getDb(), order.platformOrderNo, 'processing');
    const fields = refundFields(order);
    const answer = await refund(fields);
    expect(answer.data.status).toBe('processing');
    await settleSandboxWechatRefund(getDb(), answer.data.refundNo, 'SUCCESS');
    expect((await queryRefund(fields.merchantRefundNo)).data).toMatchObject({ status: 'succeeded', refundedAmount: '5.00' });
    const { rows } = await getDb().execute<{ verdict: string }>(sql`SELECT verdict FROM upstream_callbacks WHERE channel = 'WECHAT' AND detail LIKE ${`refund ${answer.data.refundNo}%`}`);
    expect(rows.map((row) => row.verdict)).toEqual(['refund']);

    const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 });
    while ((await worker.runOnce()) > 0);
    const notices = refundReceiver.received.filter(({ form }) => form.merchantRefundNo === fields.merchantRefundNo);
    expect(notices.map(({ form, signatureValid }) => [form.status, form.payType, signatureValid])).toEqual([['succeeded', 'WECHAT', true]]);
  });

  it('a closed refund found by the query poller is closed and frees its amount', async () => {
    const order = await aPaidOrder('10.00');
    await planWechatRefund(getDb(), order.platformOrderNo, 'processing');
    const closing = refundFields(order, { refundAmount: '10.00' });
    const answer = await refund(closing);
    expect(answer.data.status).toBe('processing');
    await settleSandboxWechatRefund(getDb(), answer.data.refundNo, 'CLOSED', { notify: false });
    await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE refund_no = ${answer.data.refundNo}`);
    await pollProcessingRefunds(getDb(), new Date(), refundsOf);
    expect((await queryRefund(closing.merchantRefundNo)).data).toMatchObject({ status: 'closed', refundedAmount: '0.00' });
  });

  it('a refund whose answer times out is sent again with the same out_refund_no: WeChat Pay refunds once', async () => {
    const order = await aPaidOrder('20.00');
    await planWechatRefund(getDb(), order.platformOrderNo, 'timeout_once');
    process.env.WECHAT_TIMEOUT_MS = '800';
    process.env.SANDBOX_SLOW_ANSWER_MS = '2000';
    const answer = await refund(refundFields(order, { refundAmount: '4.00' }));
    expect(answer.data).toMatchObject({ status: 'succeeded', refundedAmount: '4.00' });
    expect((await sandboxWechatRefundsOf(getDb(), order.platformOrderNo)).map((row) => row.outRefundNo)).toEqual([answer.data.refundNo]);
  });

  it('the sandbox refuses what WeChat Pay refuses: another amount.total, a bad out_refund_no, a reused one with another amount, too much', async () => {
    const order = await aPaidOrder('10.00');
    const amount = (refundMinor: number, total = 1000) => ({ refund: refundMinor, total, currency: 'CNY' });
    expect(await rawRefund(order, { out_refund_no: 'RAW-1', amount: amount(100, 999) })).toContain('INVALID_REQUEST amount.total 999');
    expect(await rawRefund(order, { out_refund_no: 'RAW 1', amount: amount(100) })).toContain('PARAM_ERROR out_refund_no');
    expect(await rawRefund(order, { out_refund_no: 'RAW-2', amount: amount(100) })).toBe('accepted');
    expect(await rawRefund(order, { out_refund_no: 'RAW-2', amount: amount(200) })).toContain('INVALID_REQUEST');
    expect(await rawRefund(order, { out_refund_no: 'RAW-3', amount: amount(901) })).toContain('NOT_ENOUGH');
  });

  it('the 51st refund of an order is refused before WeChat Pay is asked; the sandbox refuses it too', async () => {
    const order = await aPaidOrder('100.00');
    for (let index = 0; index < 50; index += 1) expect((await refund(refundFields(order, { refundAmount: '0.01' }))).code).toBe(0);
    expect(await refund(refundFields(order, { refundAmount: '0.01' }))).toMatchObject({ code: 1022, message: 'WeChat Pay refunds an order at most 50 times' });
    expect(await sandboxWechatRefundsOf(getDb(), order.platformOrderNo)).toHaveLength(50);
    expect(await rawRefund(order, { out_refund_no: 'RAW-51', amount: { refund: 1, total: 10000, currency: 'CNY' } })).toContain('at most 50 times');
  });

  it('none a year after the payment: refused before WeChat Pay is asked', async () => {
    const order = await aPaidOrder('10.00');
    await getDb().execute(sql`UPDATE orders SET paid_at = now() - interval '366 days' WHERE order_no = ${order.platformOrderNo}`);
    expect(await refund(refundFields(order))).toMatchObject({ code: 1022, message: 'WeChat Pay refunds nothing more than a year after the payment' });
    expect(await sandboxWechatRefundsOf(getDb(), order.platformOrderNo)).toHaveLength(0);
  });
});
