import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { orders, refunds } from '../db/schema';
import { addSandboxCredential } from '../cli/credential-add-command';
import { channelNamed } from '../channels';
import { findAlipayCheckout } from '../channels/alipay/checkout-view';
import { pollProcessingRefunds } from './poll-refunds';
import { alipaySubmit } from '../../test/alipay-sandbox';
import { startAnswerLosingProxy, seededRandom } from '../../test/answer-losing-proxy';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { aMerchant } from '../../test/factories';
import { paySandboxTrade } from '../../sandbox/alipay/pay';
import { planTradeRefund, refundsOfTrade, type RefundPlan } from '../../sandbox/alipay/refund';
import { refundInConsole } from '../../sandbox/alipay/bill';
import { findAnyByOutTradeNo as findAlipayTrade } from '../../sandbox/alipay/store';
import { paySandboxWechatOrder } from '../../sandbox/wechat/pay';
import { planWechatRefund, sandboxWechatRefundsOf, settleSandboxWechatRefund, type WechatRefundPlan } from '../../sandbox/wechat/refund';

const REFUND_SUBMIT = '/v1/api/open/refund/submit';
const CONCURRENT_REFUNDS = 20;
const SEED = Number(process.env.REFUND_INVARIANT_SEED ?? 52);

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let proxies: Awaited<ReturnType<typeof startAnswerLosingProxy>>[] = [];
const random = seededRandom(SEED);
let counter = 0;

async function aPaidOrder(payType: 'ALIPAY' | 'WECHAT', amount: string) {
  const fields =
    payType === 'ALIPAY'
      ? alipaySubmit(merchant.appId, { amount })
      : { appId: merchant.appId, merchantOrderNo: `INV-${process.pid}-${(counter += 1)}-${Date.now()}`, payType, payMethod: 'native', amount, productName: 'VIP', notifyUrl: 'https://merchant.example/notify' };
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const orderNo = json.data.platformOrderNo as string;
  if (payType === 'ALIPAY') {
    const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
    expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
    await paySandboxTrade(getDb(), { outTradeNo: orderNo }, { notify: false });
  } else {
    await paySandboxWechatOrder(getDb(), { outTradeNo: orderNo }, { notify: false });
  }
  await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE order_no = ${orderNo} AND status = 'pending'`);
  return { orderNo, merchantOrderNo: fields.merchantOrderNo as string };
}

/** 20 refunds of one order at once, of random amounts (1.00 to 6.00) whose sum may exceed what was paid. */
function concurrentRefunds(order: { merchantOrderNo: string }) {
  return Promise.all(
    Array.from({ length: CONCURRENT_REFUNDS }, () => {
      const refundAmount = (1 + Math.floor(random() * 500) / 100).toFixed(2);
      const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `INV-${process.pid}-${(counter += 1)}`, refundAmount };
      return bed.app.signedPost(REFUND_SUBMIT, fields, merchant.appSecret).then(({ json }) => json as { code: number; data: { refundNo: string } | null });
    }),
  );
}

/** What the upstream moved for the order: Alipay's REFUND_SUCCESS refunds; WeChat's SUCCESS and ABNORMAL ones (the money left the balance). */
async function movedUpstream(payType: 'ALIPAY' | 'WECHAT', orderNo: string) {
  if (payType === 'ALIPAY') return new Map((await refundsOfTrade(getDb(), orderNo)).filter((row) => row.status === 'REFUND_SUCCESS').map((row) => [row.outRequestNo, row.amountMinor]));
  return new Map((await sandboxWechatRefundsOf(getDb(), orderNo)).filter((row) => ['SUCCESS', 'ABNORMAL'].includes(row.status)).map((row) => [row.outRefundNo, row.amountMinor]));
}

/** Runs the refund poller until no refund is processing (the answers still lost at random), at most `rounds` times. */
async function pollUntilSettled(rounds = 40) {
  for (let round = 0; round < rounds; round += 1) {
    const [{ open } = { open: 0 }] = (await getDb().execute<{ open: number }>(sql`SELECT count(*)::int AS open FROM refunds WHERE state = 'processing'`)).rows;
    if (open === 0) return;
    await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE state IN ('processing', 'abnormal')`);
    await pollProcessingRefunds(getDb(), new Date(), (name) => channelNamed(name)?.refunds);
  }
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  const alipay = await startAnswerLosingProxy(bed.alipayGatewayUrl, { lossRate: 0, random });
  const wechat = await startAnswerLosingProxy(bed.wechatSandboxUrl, { lossRate: 0, random });
  proxies = [alipay, wechat];
  process.env.ALIPAY_GATEWAY_URL = alipay.url;
  process.env.WECHAT_API_BASE_URL = wechat.url;
  process.env.ALIPAY_TIMEOUT_MS = '5000';
  process.env.WECHAT_TIMEOUT_MS = '5000';
  process.env.SANDBOX_SLOW_ANSWER_MS = '6000';
});
afterAll(async () => {
  for (const name of ['ALIPAY_TIMEOUT_MS', 'WECHAT_TIMEOUT_MS', 'SANDBOX_SLOW_ANSWER_MS']) delete process.env[name];
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await bed.close();
});

/** The merchant refunds the whole order at once while every answer is lost: the first request makes the refund and closes the trade at Alipay. */
async function fullRefundWithAnswersLost(order: { merchantOrderNo: string }) {
  for (const proxy of proxies) proxy.setLossRate(1);
  try {
    const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `INV-FULL-${process.pid}-${(counter += 1)}`, refundAmount: '30.00' };
    const { json } = await bed.app.signedPost(REFUND_SUBMIT, fields, merchant.appSecret);
    // Sent three times, the two resends meeting the closed trade (ACQ.TRADE_HAS_CLOSE), no answer heard: not known yet.
    expect(json.data).toMatchObject({ status: 'processing', refundAmount: '30.00' });
    return json.data.refundNo as string;
  } finally {
    for (const proxy of proxies) proxy.setLossRate(0);
  }
}

/** What happens to an order before its concurrent refunds, beside its refund plan. */
type Before = 'full_refund_answers_lost' | 'full_refund_in_console';
/** What becomes of an abnormal refund at WeChat afterwards (handled by hand in the merchant platform), if anything. */
type Afterwards = 'SUCCESS' | 'CLOSED';

describe('money moved upstream = refunds reported succeeded (+ abnormal), under bad answers and lost ones', () => {
  it(`${CONCURRENT_REFUNDS} concurrent refunds per order, a quarter of the answers lost at random, every bad day the sandboxes have`, async () => {
    const cases: { payType: 'ALIPAY' | 'WECHAT'; plan: RefundPlan | WechatRefundPlan | null; before?: Before; afterwards?: Afterwards }[] = [
      { payType: 'ALIPAY', plan: 'unavailable_after_refund' },
      { payType: 'ALIPAY', plan: 'system_error_after_refund' },
      { payType: 'ALIPAY', plan: 'aop_system_error_after_refund' },
      { payType: 'ALIPAY', plan: 'timeout_once' },
      { payType: 'ALIPAY', plan: 'fail' },
      { payType: 'ALIPAY', plan: null },
      // A deliberate full refund closes the trade at Alipay; every later one is refused here (nothing left to refund).
      { payType: 'ALIPAY', plan: null, before: 'full_refund_answers_lost' },
      // Refunded in full in Alipay's console, the trade is closed there: each refund of the service meets the closed
      // trade and is refused definitively (ACQ.TRADE_HAS_CLOSE, the refund query finding none), moving nothing.
      { payType: 'ALIPAY', plan: null, before: 'full_refund_in_console' },
      { payType: 'WECHAT', plan: 'abnormal', afterwards: 'SUCCESS' },
      { payType: 'WECHAT', plan: 'abnormal', afterwards: 'CLOSED' },
      { payType: 'WECHAT', plan: 'abnormal' },
      { payType: 'WECHAT', plan: 'timeout_once' },
      // WeChat refuses every refund of the order (403 NOT_ENOUGH): each fails, nothing moves, nothing stays reserved.
      { payType: 'WECHAT', plan: 'not_enough' },
      { payType: 'WECHAT', plan: null },
    ];
    const placed = [];
    for (const { payType, plan, before, afterwards } of cases) {
      const order = await aPaidOrder(payType, '30.00');
      if (payType === 'ALIPAY') await planTradeRefund(getDb(), order.orderNo, plan as RefundPlan | null);
      else await planWechatRefund(getDb(), order.orderNo, plan as WechatRefundPlan | null);
      const fullRefundNo = before === 'full_refund_answers_lost' ? await fullRefundWithAnswersLost(order) : undefined;
      if (before === 'full_refund_in_console') {
        const trade = await findAlipayTrade(getDb(), order.orderNo);
        await refundInConsole(getDb(), { tradeNo: trade!.tradeNo, amountMinor: 3000n, outRequestNo: `CONSOLE-${order.orderNo}`, at: new Date() });
      }
      if (before) expect((await findAlipayTrade(getDb(), order.orderNo))?.status, before).toBe('TRADE_CLOSED');
      placed.push({ payType, plan, before, afterwards, order, fullRefundNo });
    }
    for (const proxy of proxies) proxy.setLossRate(0.25);
    const answers = await Promise.all(placed.map(({ order }) => concurrentRefunds(order)));
    for (const batch of answers) expect(batch.every((answer) => answer.code === 0 || answer.code === 1023)).toBe(true);
    await pollUntilSettled();

    const refundsOf = async (orderNo: string) => {
      const [row] = await getDb().select().from(orders).where(eq(orders.orderNo, orderNo));
      return { order: row!, ours: await getDb().select().from(refunds).where(eq(refunds.orderId, row!.id)) };
    };
    // Abnormal refunds are handled by hand at WeChat afterwards (SUCCESS, or CLOSED), the poller settles them; one stays abnormal.
    for (const { order, afterwards } of placed.filter((candidate) => candidate.afterwards)) {
      const abnormal = (await sandboxWechatRefundsOf(getDb(), order.orderNo)).filter((row) => row.status === 'ABNORMAL');
      expect(abnormal, order.orderNo).toHaveLength(1);
      // Until WeChat's final word its money stays reserved: the merchant cannot refund it again.
      const { order: before, ours } = await refundsOf(order.orderNo);
      const held = ours.find((refund) => refund.refundNo === abnormal[0]!.outRefundNo);
      expect(held?.state).toBe('abnormal');
      expect(before.refundReservedMinor - before.refundedMinor).toBeGreaterThanOrEqual(held!.amountMinor);
      await settleSandboxWechatRefund(getDb(), abnormal[0]!.outRefundNo, afterwards!, { notify: false });
    }
    for (let round = 0; round < 20 && (await getDb().select().from(refunds).where(eq(refunds.state, 'abnormal'))).length > 1; round += 1) {
      await getDb().execute(sql`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE state = 'abnormal'`);
      await pollProcessingRefunds(getDb(), new Date(), (name) => channelNamed(name)?.refunds);
    }

    for (const { payType, plan, before, afterwards, order, fullRefundNo } of placed) {
      const label = `${payType} ${plan ?? 'none'}${before ? ` ${before}` : ''}${afterwards ? ` then ${afterwards}` : ''}`;
      const { order: row, ours } = await refundsOf(order.orderNo);
      const moved = await movedUpstream(payType, order.orderNo);
      const reported = ours.filter((refund) => refund.state === 'succeeded' || refund.state === 'abnormal');
      // Never more, never less: each refund the service reports done is one the upstream made, of its amount.
      expect(new Map(reported.map((refund) => [refund.refundNo, refund.amountMinor])), label).toEqual(moved);
      expect(ours.filter((refund) => refund.state === 'processing'), label).toEqual([]);
      const sum = (states: string[]) => ours.filter((refund) => states.includes(refund.state)).reduce((total, refund) => total + refund.amountMinor, 0n);
      expect({ refunded: row.refundedMinor, reserved: row.refundReservedMinor }, label).toEqual({ refunded: sum(['succeeded']), reserved: sum(['succeeded', 'abnormal']) });
      // A reservation is released only by a definitive refusal: a failed refund made nothing upstream.
      for (const refund of ours.filter((candidate) => candidate.state === 'failed' || candidate.state === 'closed')) expect(moved.has(refund.refundNo), label).toBe(false);

      if (before === 'full_refund_answers_lost') {
        expect(ours.map(({ refundNo, state, amountMinor }) => ({ refundNo, state, amountMinor })), label).toEqual([{ refundNo: fullRefundNo, state: 'succeeded', amountMinor: 3000n }]);
        expect(ours[0]!.requestCount, label).toBeGreaterThanOrEqual(3);
      }
      if (before === 'full_refund_in_console' || plan === 'not_enough') {
        expect(ours.length, label).toBeGreaterThan(0);
        expect(ours.filter((refund) => refund.state !== 'failed'), label).toEqual([]);
        const refusal = plan === 'not_enough' ? 'NOT_ENOUGH' : 'ACQ.TRADE_HAS_CLOSE';
        expect(ours.every((refund) => refund.failureReason?.includes(refusal)), `${label}: ${ours.map((refund) => refund.failureReason).join('; ')}`).toBe(true);
        expect(moved.size, label).toBe(0);
        expect(row.refundReservedMinor, label).toBe(0n);
      }
      if (afterwards === 'CLOSED') {
        const closed = ours.filter((refund) => refund.state === 'closed');
        expect(closed, label).toHaveLength(1);
        // Its money came back to the merchant: nothing moved for it, nothing reserved for it any more.
        expect(moved.has(closed[0]!.refundNo), label).toBe(false);
      }
    }
    expect(proxies.every((proxy) => proxy.lost > 0)).toBe(true);
    expect((await getDb().select().from(refunds).where(eq(refunds.state, 'abnormal'))).length).toBe(1);
    const { rows } = await getDb().execute<{ state: string; n: number }>(sql`SELECT state, count(*)::int AS n FROM refunds GROUP BY state ORDER BY state`);
    console.info(`refund invariant (seed ${SEED}): ${rows.map((row) => `${row.n} ${row.state}`).join(', ')}; answers lost: ${proxies.map((proxy) => `${proxy.lost} of ${proxy.forwarded}`).join(' (Alipay), ')} (WeChat)`);
  }, 300_000);
});
