import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant } from '../../../test/factories';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { startMerchantReceiver } from '../../../test/beds/merchant-receiver';
import { aPaidWechatOrder } from '../../../test/paid-wechat-order';
import { eventually } from '../../../test/wait-for';
import { planWechatRefund, sandboxWechatRefundsOf, settleSandboxWechatRefund } from '../../../sandbox/wechat/refund';
import { runSandbox } from '../../../test/run-sandbox';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { getDb } from '../../db/client';
import { orders } from '../../db/schema';
import { NotificationWorker } from '../../notifications/notification-worker';
import { listAttention } from '../../operator/attention';
import { pollProcessingRefunds } from '../../refunds/poll-refunds';
import { remedyAbnormalRefund } from '../../refunds/remedy-abnormal';
import { refundsOfOrder } from '../open-api-refunds';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { callWechat } from './client';
import { wechatConfig } from './config';
import { wechatAccountFor } from './platform-certificates';
import { channelNamed, notificationFieldsOf } from '../index';

const REFUND_SUBMIT = '/v1/api/open/refund/submit';
const REFUND_QUERY = '/v1/api/open/refund/query';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let counter = 0;

const aPaidOrder = (amount: string) => aPaidWechatOrder(bed.app, merchant, amount, 'WXA');

async function refund(order: { merchantOrderNo: string }, refundAmount: string) {
  counter += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `WAR-${process.pid}-${counter}-${Date.now()}`, refundAmount, notifyUrl: receiver.url };
  const { json } = await bed.app.signedPost(REFUND_SUBMIT, fields, merchant.appSecret);
  return { fields, json };
}
const queryRefund = (merchantRefundNo: string) => bed.app.signedPost(REFUND_QUERY, { appId: merchant.appId, merchantRefundNo }, merchant.appSecret).then(({ json }) => json);
const refundsOf = (name: string) => channelNamed(name)?.refunds;

async function orderSums(orderNo: string) {
  const [row] = await getDb().select({ reserved: orders.refundReservedMinor, refunded: orders.refundedMinor }).from(orders).where(eq(orders.orderNo, orderNo));
  return row!;
}

async function noticeStatuses(merchantRefundNo: string) {
  const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 });
  while ((await worker.runOnce()) > 0);
  return receiver.received.filter(({ form }) => form.merchantRefundNo === merchantRefundNo).map(({ form }) => form.status);
}

/** A refund that WeChat Pay turned ABNORMAL (REFUND.ABNORMAL notified), as the merchant's refund query sees it. */
async function anAbnormalRefund(amount: string, refundAmount: string) {
  const order = await aPaidOrder(amount);
  await planWechatRefund(getDb(), order.platformOrderNo, 'abnormal');
  const { fields, json } = await refund(order, refundAmount);
  expect(json.data.status).toBe('processing');
  await eventually(async () => (await queryRefund(fields.merchantRefundNo)).data.status !== 'processing', 'the refund to leave processing');
  return { order, fields, refundNo: json.data.refundNo as string };
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  receiver = await startMerchantReceiver(merchant.appSecret);
});
afterAll(async () => {
  await receiver.close();
  await bed.close();
});

describe('WECHAT ABNORMAL refunds', () => {
  it('ABNORMAL is its own state: the amount stays reserved, the merchant is notified "abnormal", the operator sees it; a later SUCCESS settles it', async () => {
    const { order, fields, refundNo } = await anAbnormalRefund('10.00', '6.00');
    expect((await queryRefund(fields.merchantRefundNo)).data).toMatchObject({ status: 'abnormal', refundedAmount: '0.00', failureReason: expect.stringContaining('ABNORMAL') });
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 600n, refunded: 0n });
    // What is left to refund does not include the abnormal refund's money: a second refund of it is refused.
    expect((await refund(order, '4.01')).json.code).toBe(1023);
    expect(await noticeStatuses(fields.merchantRefundNo)).toEqual(['abnormal']);
    const attention = await listAttention(getDb());
    expect(attention.refunds.find((item) => item.refundNo === refundNo)).toMatchObject({ state: 'abnormal', amount: '6.00' });

    // The merchant handled it by hand in WeChat's merchant platform: REFUND.SUCCESS arrives (sent by the sandbox CLI).
    const settled = await runSandbox(['wechat', 'refund-settle', '--refund', refundNo, '--status', 'SUCCESS', '--json']);
    expect(settled.exitCode, settled.stderr).toBe(0);
    await eventually(async () => (await queryRefund(fields.merchantRefundNo)).data.status === 'succeeded', 'the refund to be succeeded');
    expect((await queryRefund(fields.merchantRefundNo)).data).toMatchObject({ status: 'succeeded', refundedAmount: '6.00', failureReason: null });
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 600n, refunded: 600n });
    expect(await noticeStatuses(fields.merchantRefundNo)).toEqual(['abnormal', 'succeeded']);
    expect((await listAttention(getDb())).refunds.some((item) => item.refundNo === refundNo)).toBe(false);
  });

  it('ABNORMAL then CLOSED (found by the poller): the refund is closed and only then its amount is free again', async () => {
    const { order, fields, refundNo } = await anAbnormalRefund('10.00', '10.00');
    await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE refund_no = ${refundNo}`);
    await pollProcessingRefunds(getDb(), new Date(), refundsOf);
    expect((await queryRefund(fields.merchantRefundNo)).data.status).toBe('abnormal');
    await settleSandboxWechatRefund(getDb(), refundNo, 'CLOSED', { notify: false });
    await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE refund_no = ${refundNo}`);
    expect(await pollProcessingRefunds(getDb(), new Date(), refundsOf)).toMatchObject({ finished: 1 });
    expect((await queryRefund(fields.merchantRefundNo)).data).toMatchObject({ status: 'closed', refundedAmount: '0.00' });
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 0n, refunded: 0n });
  });

  it("the merchant applies WeChat Pay's remedy (apply-abnormal-refund): MERCHANT_BANK_CARD, or USER_BANK_CARD with the bank details encrypted", async () => {
    for (const remedy of [{ type: 'MERCHANT_BANK_CARD' as const }, { type: 'USER_BANK_CARD' as const, bankType: 'ICBC_DEBIT', bankAccount: '6222020202020202', realName: '张三' }]) {
      const { order, fields, refundNo } = await anAbnormalRefund('8.00', '8.00');
      const outcome = await remedyAbnormalRefund(getDb(), { merchantId: merchant.id, refundNo, remedy, channelOf: refundsOfOrder, actor: 'test', now: new Date() });
      expect(outcome.state).toBe('processing');
      expect((await sandboxWechatRefundsOf(getDb(), order.platformOrderNo)).map((row) => row.outRefundNo)).toEqual([refundNo]);
      await eventually(async () => (await queryRefund(fields.merchantRefundNo)).data.status === 'succeeded', 'the refund to be succeeded');
      expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 800n, refunded: 800n });
    }
  });

  it('a remedy WeChat Pay refuses leaves the refund abnormal and is audited like an accepted one, without the bank details', async () => {
    const { order, fields, refundNo } = await anAbnormalRefund('9.00', '3.00');
    // Meanwhile the merchant closed it by hand in WeChat's merchant platform (the notice not arrived yet).
    await settleSandboxWechatRefund(getDb(), refundNo, 'CLOSED', { notify: false });
    const remedy = { type: 'USER_BANK_CARD' as const, bankType: 'ICBC_DEBIT', bankAccount: '6222020202029999', realName: '李四' };
    await expect(remedyAbnormalRefund(getDb(), { merchantId: merchant.id, refundNo, remedy, channelOf: refundsOfOrder, actor: 'portal:test', now: new Date() })).rejects.toThrow(/INVALID_REQUEST/);
    expect((await queryRefund(fields.merchantRefundNo)).data.status).toBe('abnormal');
    const { rows } = await getDb().execute<{ actor: string; after: Record<string, unknown> }>(
      sql`SELECT actor, after FROM audit_log WHERE action = 'refund.remedy' AND subject = ${`order:${order.platformOrderNo}`}`,
    );
    expect(rows).toEqual([{ actor: 'portal:test', after: { refundNo, type: 'USER_BANK_CARD', outcome: 'refused', refusal: expect.stringContaining('INVALID_REQUEST') } }]);
    expect(JSON.stringify(rows)).not.toMatch(/6222020202029999|李四/);
  });

  it('the remedy is refused for a refund that is not abnormal, and the sandbox refuses bank details sent in clear', async () => {
    const order = await aPaidOrder('5.00');
    const { json } = await refund(order, '1.00');
    expect(json.data.status).toBe('succeeded');
    await expect(
      remedyAbnormalRefund(getDb(), { merchantId: merchant.id, refundNo: json.data.refundNo, remedy: { type: 'MERCHANT_BANK_CARD' }, channelOf: refundsOfOrder, actor: 'test', now: new Date() }),
    ).rejects.toThrow('is succeeded: only an abnormal refund has a remedy');

    const { order: abnormalOrder, refundNo } = await anAbnormalRefund('5.00', '2.00');
    const [row] = await getDb().select().from(orders).where(eq(orders.orderNo, abnormalOrder.platformOrderNo));
    const [atWechat] = await sandboxWechatRefundsOf(getDb(), abnormalOrder.platformOrderNo);
    const config = wechatConfig();
    const account = await wechatAccountFor(getDb(), (await findBoundCredential(getDb(), row!))!, config, new Date());
    const clear = { out_refund_no: refundNo, type: 'USER_BANK_CARD', bank_type: 'ICBC_DEBIT', bank_account: '6222020202020202', real_name: '张三' };
    const path = `/v3/refund/domestic/refunds/${atWechat!.refundId}/apply-abnormal-refund`;
    await expect(callWechat(config, account, { operation: 'abnormal_refund', method: 'POST', pathWithQuery: path, body: clear })).rejects.toThrow('PARAM_ERROR bank_account must be encrypted');
    await expect(callWechat(config, account, { operation: 'abnormal_refund', method: 'POST', pathWithQuery: path, body: { out_refund_no: refundNo, type: 'MERCHANT_BACK_FUND' } })).rejects.toThrow(
      'PARAM_ERROR type must be one of USER_BANK_CARD, MERCHANT_BANK_CARD',
    );
    expect((await sandboxWechatRefundsOf(getDb(), abnormalOrder.platformOrderNo))[0]!.status).toBe('ABNORMAL');
  });
});
