import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { addSandboxCredential } from '../cli/credential-add-command';
import { completeOrderManually } from '../orders/complete-order-manually';
import { aMerchant } from '../../test/factories';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { paySandboxWechatOrder } from '../../sandbox/wechat/pay';
import { refundInMerchantPlatform } from '../../sandbox/wechat/bill';
import { handleSandboxWechatApi } from '../../sandbox/wechat/http-api';
import { serveWebHandler } from '../../test/web-handler-server';
import { beijingDayBounds, beijingDayOf } from './beijing-day';
import { reconcileDay } from './reconcile-day';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

/**
 * A day of the last three months (WeChat's limit) for this test alone: what earlier runs left on it is moved a year
 * back, on both sides.
 */
async function aDayOfItsOwn(): Promise<string> {
  const day = beijingDayOf(new Date(Date.now() - (3 + Math.floor(Math.random() * 80)) * 86_400_000));
  const { start, end } = beijingDayBounds(day)!;
  await getDb().execute(sql`UPDATE sandbox_wechat_orders SET success_time = success_time - interval '400 days' WHERE success_time >= ${start} AND success_time < ${end}`);
  await getDb().execute(sql`UPDATE sandbox_wechat_console_refunds SET refunded_at = refunded_at - interval '400 days' WHERE refunded_at >= ${start} AND refunded_at < ${end}`);
  await getDb().execute(sql`UPDATE orders SET paid_at = paid_at - interval '400 days' WHERE channel = 'WECHAT' AND paid_at >= ${start} AND paid_at < ${end}`);
  await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET success_time = success_time - interval '400 days' WHERE success_time >= ${start} AND success_time < ${end}`);
  await getDb().execute(sql`UPDATE refunds SET finished_at = finished_at - interval '400 days' WHERE finished_at >= ${start} AND finished_at < ${end}
    AND order_id IN (SELECT id FROM orders WHERE channel = 'WECHAT')`);
  return day;
}

async function anOrder(amount: string) {
  counter += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `WXR-${process.pid}-${counter}-${Date.now()}`, payType: 'WECHAT', payMethod: 'native', amount, productName: '季度会员', notifyUrl: 'https://merchant.example/notify' };
  const { json } = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)) as { json: { code: number; data: { platformOrderNo: string } } };
  expect(json.code).toBe(0);
  return { orderNo: json.data.platformOrderNo, merchantOrderNo: fields.merchantOrderNo };
}

async function happenedOn(day: string, orderNo: string) {
  const noon = new Date(beijingDayBounds(day)!.start.getTime() + 12 * 3600_000);
  await getDb().execute(sql`UPDATE sandbox_wechat_orders SET success_time = ${noon} WHERE out_trade_no = ${orderNo} AND success_time IS NOT NULL`);
  await getDb().execute(sql`UPDATE orders SET paid_at = ${noon} WHERE order_no = ${orderNo} AND paid_at IS NOT NULL`);
  return noon;
}

async function reconcileWechat(day: string) {
  const outcomes = await reconcileDay(getDb(), { day, now: () => new Date(), channels: ['WECHAT'] });
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

async function findingsOf(runId: number) {
  const { rows } = await getDb().execute<{ kind: string; reference: string; upstream_amount_minor: string | null; ours_amount_minor: string | null; upstream_status: string | null }>(
    sql`SELECT kind, reference, upstream_amount_minor, ours_amount_minor, upstream_status FROM reconciliation_findings WHERE run_id = ${runId} ORDER BY kind, reference`,
  );
  return rows;
}

/** A refund asked for through the open API (WeChat Pay's simulator settles it at once), moved to `at` on both sides. */
async function refundThroughApi(order: { orderNo: string; merchantOrderNo: string }, amount: string, at: Date) {
  const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `WRR-${order.orderNo}-${amount.replace('.', '_')}`, refundAmount: amount };
  const { json } = (await bed.app.signedPost('/v1/api/open/refund/submit', fields, merchant.appSecret)) as { json: { code: number; data: { refundNo: string; status: string } } };
  expect(json).toMatchObject({ code: 0, data: { status: 'succeeded' } });
  await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET success_time = ${at} WHERE out_refund_no = ${json.data.refundNo}`);
  await getDb().execute(sql`UPDATE refunds SET finished_at = ${at} WHERE refund_no = ${json.data.refundNo}`);
  return json.data.refundNo;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
});
afterAll(() => bed.close());

describe('reconciling a day of WECHAT against the simulated WeChat Pay trade bill (gzip, SHA1-checked)', () => {
  it('finds each kind of difference exactly once, and again the same when repeated', async () => {
    const day = await aDayOfItsOwn();
    const matched = await anOrder('10.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: matched.orderNo }, { notify: true });
    await happenedOn(day, matched.orderNo);

    const missingHere = await anOrder('20.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: missingHere.orderNo }, { notify: false });
    await happenedOn(day, missingHere.orderNo);

    const amountDiffers = await anOrder('30.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: amountDiffers.orderNo }, { notify: true });
    await happenedOn(day, amountDiffers.orderNo);
    await getDb().execute(sql`UPDATE sandbox_wechat_orders SET amount_minor = 2999 WHERE out_trade_no = ${amountDiffers.orderNo}`);

    const revoked = await anOrder('35.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: revoked.orderNo }, { notify: true });
    await happenedOn(day, revoked.orderNo);
    await getDb().execute(sql`UPDATE sandbox_wechat_orders SET trade_state = 'REVOKED' WHERE out_trade_no = ${revoked.orderNo}`);

    const missingUpstream = await anOrder('40.00');
    await completeOrderManually(getDb(), { appId: merchant.appId, merchantOrderNo: missingUpstream.merchantOrderNo, reason: 'said to be paid', actor: 'test', now: new Date() });
    await happenedOn(day, missingUpstream.orderNo);

    const refunded = await anOrder('50.00');
    const { order: paid } = await paySandboxWechatOrder(getDb(), { outTradeNo: refunded.orderNo }, { notify: true });
    const noon = await happenedOn(day, refunded.orderNo);
    await refundInMerchantPlatform(getDb(), { transactionId: paid.transactionId, amountMinor: 500n, outRefundNo: `RF-${refunded.orderNo}`, at: new Date(noon.getTime() + 60_000) });

    for (const outcome of [await reconcileWechat(day), await reconcileWechat(day)]) {
      expect(outcome.status, outcome.detail ?? '').toBe('complete');
      expect(outcome.totals).toMatchObject({ upstreamCount: 4, upstreamTotalMinor: 10999n, upstreamRefundCount: 1, upstreamRefundTotalMinor: 500n, oursCount: 5, oursTotalMinor: 16500n, findingCount: 5 });
      expect(await findingsOf(outcome.runId)).toEqual([
        { kind: 'amount_differs', reference: amountDiffers.orderNo, upstream_amount_minor: '2999', ours_amount_minor: '3000', upstream_status: 'success' },
        { kind: 'missing_here', reference: missingHere.orderNo, upstream_amount_minor: '2000', ours_amount_minor: '2000', upstream_status: 'success' },
        { kind: 'missing_upstream', reference: missingUpstream.orderNo, upstream_amount_minor: null, ours_amount_minor: '4000', upstream_status: null },
        { kind: 'refund_outside', reference: refunded.orderNo, upstream_amount_minor: '500', ours_amount_minor: '5000', upstream_status: 'refund' },
        { kind: 'status_differs', reference: revoked.orderNo, upstream_amount_minor: '3500', ours_amount_minor: '3500', upstream_status: 'REVOKED' },
      ]);
    }
  });

  it('refunds made through the service are matched with the bill; a merchant-platform refund is outside, one the bill lacks is missing upstream', async () => {
    const day = await aDayOfItsOwn();
    const order = await anOrder('60.00');
    const { order: paid } = await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    const noon = await happenedOn(day, order.orderNo);
    const afternoon = new Date(noon.getTime() + 2 * 3600_000);
    await refundThroughApi(order, '10.00', afternoon);
    const amountDiffers = await refundThroughApi(order, '20.00', afternoon);
    await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET amount_minor = 2001 WHERE out_refund_no = ${amountDiffers}`);
    const notInBill = await refundThroughApi(order, '3.00', afternoon);
    await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET success_time = ${new Date(noon.getTime() + 86_400_000)} WHERE out_refund_no = ${notInBill}`);
    await refundInMerchantPlatform(getDb(), { transactionId: paid.transactionId, amountMinor: 400n, outRefundNo: `RF-${order.orderNo}`, at: afternoon });

    const outcome = await reconcileWechat(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamCount: 1, upstreamTotalMinor: 6000n, upstreamRefundCount: 3, upstreamRefundTotalMinor: 3401n, findingCount: 3 });
    const { rows } = await getDb().execute<{ kind: string; upstream_reference: string; upstream_amount_minor: string | null; ours_amount_minor: string | null }>(
      sql`SELECT kind, upstream_reference, upstream_amount_minor, ours_amount_minor FROM reconciliation_findings WHERE run_id = ${outcome.runId} ORDER BY kind`,
    );
    expect(rows).toEqual([
      { kind: 'amount_differs', upstream_reference: amountDiffers, upstream_amount_minor: '2001', ours_amount_minor: '2000' },
      { kind: 'missing_upstream', upstream_reference: notInBill, upstream_amount_minor: null, ours_amount_minor: '300' },
      { kind: 'refund_outside', upstream_reference: `RF-${order.orderNo}`, upstream_amount_minor: '400', ours_amount_minor: '6000' },
    ]);
  });

  it('a clean day has no findings; a day WeChat has no bill for (no trade) is clean when nothing was paid here either', async () => {
    const day = await aDayOfItsOwn();
    const order = await anOrder('9.90');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    const outcome = await reconcileWechat(day);
    expect(outcome).toMatchObject({ status: 'complete', totals: { upstreamCount: 1, upstreamTotalMinor: 990n, oursCount: 1, findingCount: 0 } });

    const empty = await aDayOfItsOwn();
    expect(await reconcileWechat(empty)).toMatchObject({ status: 'complete', totals: { upstreamCount: 0, oursCount: 0, findingCount: 0 } });
  });

  it('a bill altered on its way (its SHA1 is not the hash_value announced) is refused: the run fails naming it, nothing is found or kept', async () => {
    const day = await aDayOfItsOwn();
    const order = await anOrder('9.90');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    // The simulator again, whose bill files (not signed by WeChat Pay) arrive with one amount changed.
    const altering = await serveWebHandler(async (request, segments) => {
      const response = await handleSandboxWechatApi(request, segments, getDb());
      if (!segments.join('/').endsWith('billdownload/file') || response.status !== 200) return response;
      const file = gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8');
      expect(file).toContain('`9.90');
      return new Response(gzipSync(Buffer.from(file.replace('`9.90', '`9.09'), 'utf8')), { status: 200, headers: response.headers });
    }, '/sandbox/wechat');
    const honest = process.env.WECHAT_API_BASE_URL;
    process.env.WECHAT_API_BASE_URL = altering.url;
    try {
      const outcome = await reconcileWechat(day);
      expect(outcome).toMatchObject({ status: 'failed', totals: null, detail: expect.stringMatching(/^the bill's SHA1 [0-9a-f]{40} is not the hash_value [0-9a-f]{40} WeChat Pay announced$/) });
      expect(await findingsOf(outcome.runId)).toEqual([]);
      const { rows } = await getDb().execute<{ staged: number }>(sql`SELECT count(*)::int AS staged FROM reconciliation_upstream_rows WHERE run_id = ${outcome.runId}`);
      expect(rows[0]!.staged).toBe(0);
    } finally {
      process.env.WECHAT_API_BASE_URL = honest;
      await altering.close();
    }
    expect(await reconcileWechat(day)).toMatchObject({ status: 'complete', totals: { upstreamCount: 1, upstreamTotalMinor: 990n, findingCount: 0 } });
  });
});
