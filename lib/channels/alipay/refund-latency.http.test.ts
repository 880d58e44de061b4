import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { findAlipayCheckout } from './checkout-view';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { paySandboxTrade } from '../../../sandbox/alipay/pay';

/**
 * The refund submit's latency against the Alipay sandbox, end to end (signed request, reservation, the signed
 * alipay.trade.refund call and its verification, the answer): 60 sequential partial refunds of one paid order.
 */
const REFUNDS = 60;
let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterAll(() => bed.close());

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe('refund submit latency (ALIPAY sandbox)', () => {
  it(`${REFUNDS} partial refunds answer succeeded, and the p99 stays within the upstream timeout`, async () => {
    const fields = alipaySubmit(merchant.appId, { notifyUrl: 'https://merchant.example/notify', amount: '100.00' });
    const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
    await fetch(checkout!.gatewayUrl!, { redirect: 'manual' });
    await paySandboxTrade(getDb(), { outTradeNo: json.data.platformOrderNo });

    const took: number[] = [];
    for (let index = 0; index < REFUNDS; index += 1) {
      const body = { appId: merchant.appId, merchantOrderNo: fields.merchantOrderNo as string, merchantRefundNo: `LAT-${process.pid}-${Date.now()}-${index}`, refundAmount: '0.50' };
      const startedAt = performance.now();
      const answer = await bed.app.signedPost('/v1/api/open/refund/submit', body, merchant.appSecret);
      took.push(performance.now() - startedAt);
      expect(answer.json.data.status).toBe('succeeded');
    }
    const sorted = [...took].sort((a, b) => a - b);
    const [p50, p99] = [percentile(sorted, 50), percentile(sorted, 99)];
    console.log(`refund submit against the Alipay sandbox: ${REFUNDS} refunds, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
    expect(p99).toBeLessThan(10_000);
  });
});
