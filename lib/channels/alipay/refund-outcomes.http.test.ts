import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { orders } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { findAlipayCheckout } from './checkout-view';
import { queryAlipayTrade } from './client';
import { alipayConfig } from './config';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { paySandboxTrade } from '../../../sandbox/alipay/pay';
import { planTradeRefund, refundsOfTrade } from '../../../sandbox/alipay/refund';
import { runSandbox } from '../../../test/run-sandbox';
import { captureLog } from '../../../test/captured-log';
import { serveWebHandler } from '../../../test/web-handler-server';
import { handleGateway } from '../../../sandbox/alipay/gateway';
import { checkRefund } from '../../refunds/send-refund';
import { alipayRefunds } from './refunds';

const REFUND_SUBMIT = '/v1/api/open/refund/submit';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;
let sequence = 0;

async function aPaidOrder(amount: string) {
  const fields = alipaySubmit(merchant.appId, { amount });
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
  expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
  await paySandboxTrade(getDb(), { outTradeNo: json.data.platformOrderNo }, { notify: false });
  await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE order_no = ${json.data.platformOrderNo}`);
  return { platformOrderNo: json.data.platformOrderNo as string, merchantOrderNo: fields.merchantOrderNo as string };
}

function refund(order: { merchantOrderNo: string }, refundAmount: string) {
  sequence += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `RO-${process.pid}-${sequence}-${Date.now()}`, refundAmount };
  return bed.app.signedPost(REFUND_SUBMIT, fields, merchant.appSecret).then(({ json }) => json);
}

async function orderSums(orderNo: string) {
  const [row] = await getDb().select({ reserved: orders.refundReservedMinor, refunded: orders.refundedMinor }).from(orders).where(eq(orders.orderNo, orderNo));
  return row!;
}

const movedAtAlipay = async (orderNo: string) => (await refundsOfTrade(getDb(), orderNo)).filter((row) => row.status === 'REFUND_SUCCESS').reduce((sum, row) => sum + row.amountMinor, 0n);

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterAll(() => bed.close());
afterEach(() => {
  delete process.env.ALIPAY_TIMEOUT_MS;
  delete process.env.SANDBOX_SLOW_ANSWER_MS;
});

describe('ALIPAY refund outcomes that are not final refusals', () => {
  it('20000 isp.unknow-error after the money moved is an unknown outcome: the same refund is sent again and found succeeded, never failed', async () => {
    const order = await aPaidOrder('30.00');
    // Told through the sandbox CLI, as a person testing an integration would.
    const planned = await runSandbox(['alipay', 'refund-plan', '--order', order.platformOrderNo, '--plan', 'unavailable_after_refund', '--json']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const answer = await refund(order, '10.00');
    expect(answer.data).toMatchObject({ status: 'succeeded', refundAmount: '10.00', refundedAmount: '10.00', failureReason: null });
    expect((await refundsOfTrade(getDb(), order.platformOrderNo)).map((row) => [row.outRequestNo, row.amountMinor])).toEqual([[answer.data.refundNo, 1000n]]);
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 1000n, refunded: 1000n });
  });

  it('ACQ.SYSTEM_ERROR after a full refund moved the money: the retry meets ACQ.TRADE_HAS_CLOSE, the refund query finds it done', async () => {
    const order = await aPaidOrder('20.00');
    await planTradeRefund(getDb(), order.platformOrderNo, 'system_error_after_refund');
    const answer = await refund(order, '20.00');
    expect(answer.data).toMatchObject({ status: 'succeeded', refundedAmount: '20.00' });
    expect(await movedAtAlipay(order.platformOrderNo)).toBe(2000n);
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 2000n, refunded: 2000n });
  });

  it('a full refund closes the trade at Alipay (TRADE_CLOSED); a full refund whose answer was lost is queried, not failed', async () => {
    const order = await aPaidOrder('15.00');
    await planTradeRefund(getDb(), order.platformOrderNo, 'timeout_once');
    process.env.ALIPAY_TIMEOUT_MS = '800';
    process.env.SANDBOX_SLOW_ANSWER_MS = '2000';
    const answer = await refund(order, '15.00');
    expect(answer.data).toMatchObject({ status: 'succeeded', refundedAmount: '15.00' });
    const [row] = await getDb().select().from(orders).where(eq(orders.orderNo, order.platformOrderNo));
    const trade = await queryAlipayTrade(alipayConfig(), (await findBoundCredential(getDb(), row!))!, order.platformOrderNo);
    expect(trade).toMatchObject({ found: true, status: 'TRADE_CLOSED' });
    expect(await movedAtAlipay(order.platformOrderNo)).toBe(1500n);
  });

  it('a refund Alipay does not answer in time is logged as unreachable (its outcome unknown), never as refused', async () => {
    const order = await aPaidOrder('12.00');
    await planTradeRefund(getDb(), order.platformOrderNo, 'timeout_once');
    process.env.ALIPAY_TIMEOUT_MS = '800';
    process.env.SANDBOX_SLOW_ANSWER_MS = '2000';
    const captured = captureLog();
    try {
      expect((await refund(order, '5.00')).data).toMatchObject({ status: 'succeeded', refundedAmount: '5.00' });
    } finally {
      captured.stop();
    }
    const refundCalls = captured.entries().filter((entry) => entry.component === 'upstream' && entry.channel === 'ALIPAY' && entry.operation === 'refund');
    expect(refundCalls.map((entry) => entry.outcome)).toEqual(['unreachable']);
    expect(refundCalls[0]!.failure).toMatch(/timeout/i);
  });

  it('40004 aop.ACQ.SYSTEM_ERROR after the money moved (no documented refusal) is an unknown outcome: sent again, settled by the refund query, never failed', async () => {
    const order = await aPaidOrder('18.00');
    const planned = await runSandbox(['alipay', 'refund-plan', '--order', order.platformOrderNo, '--plan', 'aop_system_error_after_refund', '--json']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const answer = await refund(order, '6.00');
    expect(answer.data).toMatchObject({ status: 'succeeded', refundedAmount: '6.00', failureReason: null });
    // The first answer was not taken as final: the same number was sent again (fund_change=N), then asked about.
    const { rows } = await getDb().execute<{ request_count: number }>(sql`SELECT request_count FROM refunds WHERE refund_no = ${answer.data.refundNo}`);
    expect(rows[0]!.request_count).toBe(2);
    expect(await movedAtAlipay(order.platformOrderNo)).toBe(600n);
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 600n, refunded: 600n });
  });

  it("a refund answer whose signature does not verify (altered on its way) stays processing and is settled by the refund query; the money moves once", async () => {
    const order = await aPaidOrder('16.00');
    // The simulator again, whose alipay.trade.refund answers arrive with one character changed after Alipay signed them.
    const tampering = await serveWebHandler(async (request) => {
      const body = await request.text();
      const method = new URL(request.url).searchParams.get('method') ?? new URLSearchParams(body).get('method');
      const answer = await handleGateway(new Request(request.url, { method: request.method, headers: request.headers, body: request.method === 'POST' ? body : undefined }), getDb());
      if (method !== 'alipay.trade.refund') return answer;
      const signed = await answer.text();
      expect(signed).toContain('"msg":"Success"');
      return new Response(signed.replace('"msg":"Success"', '"msg":"Success!"'), { status: answer.status, headers: answer.headers });
    });
    const honest = process.env.ALIPAY_GATEWAY_URL;
    process.env.ALIPAY_GATEWAY_URL = `${tampering.url}/sandbox/alipay/gateway.do`;
    let answer: Awaited<ReturnType<typeof refund>>;
    try {
      answer = await refund(order, '7.00');
    } finally {
      process.env.ALIPAY_GATEWAY_URL = honest;
      await tampering.close();
    }
    expect(answer.data).toMatchObject({ status: 'processing', refundedAmount: '0.00' });
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 700n, refunded: 0n });
    expect(await movedAtAlipay(order.platformOrderNo)).toBe(700n);
    const { rows } = await getDb().execute<{ id: string }>(sql`SELECT id FROM refunds WHERE refund_no = ${answer.data.refundNo}`);
    expect((await checkRefund(getDb(), alipayRefunds as Extract<typeof alipayRefunds, { offered: true }>, Number(rows[0]!.id), new Date())).state).toBe('succeeded');
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 700n, refunded: 700n });
    expect(await movedAtAlipay(order.platformOrderNo)).toBe(700n);
  });

  it('a definitive refusal still fails the refund and frees its amount (the refund query confirms nothing was made)', async () => {
    const order = await aPaidOrder('10.00');
    await planTradeRefund(getDb(), order.platformOrderNo, 'fail');
    const answer = await refund(order, '4.00');
    expect(answer.data).toMatchObject({ status: 'failed', failureReason: "ACQ.SELLER_BALANCE_NOT_ENOUGH: the merchant's Alipay balance is not enough for the refund" });
    expect(await orderSums(order.platformOrderNo)).toEqual({ reserved: 0n, refunded: 0n });
    expect(await movedAtAlipay(order.platformOrderNo)).toBe(0n);
  });
});
