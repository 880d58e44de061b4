import { gunzipSync, gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { addSandboxCredential } from '../cli/credential-add-command';
import { completeOrderManually } from '../orders/complete-order-manually';
import { closePendingOrders } from '../orders/order-status';
import { orders } from '../db/schema';
import { creditFinding } from './credit-finding';
import { aMerchant } from '../../test/factories';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { paySandboxWechatOrder } from '../../sandbox/wechat/pay';
import { orderOfAnotherApp, planWechatBill, refundInMerchantPlatform } from '../../sandbox/wechat/bill';
import { planWechatRefund, sandboxWechatRefundNamed, settleSandboxWechatRefund } from '../../sandbox/wechat/refund';
import { runSandbox } from '../../test/run-sandbox';
import { eventually } from '../../test/wait-for';
import { sandboxWechatKeysOf } from '../channels/wechat/sandbox-keys';
import { wechatRefunds } from '../channels/wechat/refunds';
import { wechatNotices } from '../channels/wechat/notices';
import { checkRefund } from '../refunds/send-refund';
import { ManualClock } from '../clock';
import { runJobExclusively } from '../jobs/periodic-job';
import { openFindings } from './reconciliation-view';
import { reconciliationJob } from './reconcile-job';
import { CHANNELS } from '../channels';
import { runAdmin } from '../cli/run-admin-for-tests';
import { handleSandboxWechatApi } from '../../sandbox/wechat/http-api';
import { serveWebHandler } from '../../test/web-handler-server';
import { beijingDayBounds, beijingDayOf } from './beijing-day';
import { reconcileDay } from './reconcile-day';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

/** Days back of the file's first test day; each test's day is two after the last, so no two tests share a day or its next. */
const FIRST_DAYS_BACK = 3 + Math.floor(Math.random() * 40);
let daysTaken = 0;

/**
 * A day of the last three months (WeChat's limit) for this test alone, none of this file's other tests' days (a day
 * another test had reconciled would already be complete): what earlier runs left on it is moved a year back, on both
 * sides, and its bill plan removed.
 */
async function aDayOfItsOwn(): Promise<string> {
  const daysBack = FIRST_DAYS_BACK + 2 * daysTaken++;
  const day = beijingDayOf(new Date(Date.now() - daysBack * 86_400_000));
  await clearDay(day);
  return day;
}

async function clearDay(day: string) {
  const { start, end } = beijingDayBounds(day)!;
  await getDb().execute(sql`DELETE FROM sandbox_wechat_bill_plans WHERE day = ${day}`);
  await getDb().execute(sql`UPDATE sandbox_wechat_orders SET success_time = success_time - interval '400 days' WHERE success_time >= ${start} AND success_time < ${end}`);
  await getDb().execute(sql`UPDATE sandbox_wechat_console_refunds SET refunded_at = refunded_at - interval '400 days' WHERE refunded_at >= ${start} AND refunded_at < ${end}`);
  await getDb().execute(sql`UPDATE orders SET paid_at = paid_at - interval '400 days' WHERE channel = 'WECHAT' AND paid_at >= ${start} AND paid_at < ${end}`);
  await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET created_at = created_at - interval '400 days' WHERE created_at >= ${start} AND created_at < ${end}`);
  await getDb().execute(sql`UPDATE refunds SET created_at = created_at - interval '400 days', upstream_accepted_at = upstream_accepted_at - interval '400 days'
    WHERE COALESCE(upstream_accepted_at, created_at) >= ${start} AND COALESCE(upstream_accepted_at, created_at) < ${end}
    AND order_id IN (SELECT id FROM orders WHERE channel = 'WECHAT')`);
}

async function anOrder(amount: string, productName = '季度会员') {
  counter += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `WXR-${process.pid}-${counter}-${Date.now()}`, payType: 'WECHAT', payMethod: 'native', amount, productName, notifyUrl: 'https://merchant.example/notify' };
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

async function reconcileWechat(day: string, now = () => new Date()) {
  const outcomes = await reconcileDay(getDb(), CHANNELS, { day, now, channels: ['WECHAT'] });
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

async function findingsOf(runId: number) {
  const { rows } = await getDb().execute<{ kind: string; reference: string; upstream_amount_minor: string | null; ours_amount_minor: string | null; upstream_status: string | null }>(
    sql`SELECT kind, reference, upstream_amount_minor, ours_amount_minor, upstream_status FROM reconciliation_findings WHERE run_id = ${runId} ORDER BY kind, reference`,
  );
  return rows;
}

/**
 * A refund asked for through the open API (WeChat Pay's simulator settles it at once unless the order's refund plan
 * keeps it processing), accepted and done at `at` on both sides.
 */
async function refundThroughApi(order: { orderNo: string; merchantOrderNo: string }, amount: string, at: Date, status: 'succeeded' | 'processing' = 'succeeded') {
  const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `WRR-${order.orderNo}-${amount.replace('.', '_')}`, refundAmount: amount };
  const { json } = (await bed.app.signedPost('/v1/api/open/refund/submit', fields, merchant.appSecret)) as { json: { code: number; data: { refundNo: string; status: string } } };
  expect(json).toMatchObject({ code: 0, data: { status } });
  await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET created_at = ${at}, success_time = CASE WHEN success_time IS NULL THEN NULL ELSE ${at}::timestamptz END WHERE out_refund_no = ${json.data.refundNo}`);
  await getDb().execute(sql`UPDATE refunds SET created_at = ${at}, upstream_accepted_at = ${at}, finished_at = CASE WHEN finished_at IS NULL THEN NULL ELSE ${at}::timestamptz END WHERE refund_no = ${json.data.refundNo}`);
  return json.data.refundNo;
}

/** Reconciles `day` against the simulator whose bill files (not signed by WeChat Pay) arrive changed by `alter`. */
async function reconcileWithBillAltered(day: string, alter: (file: string) => string) {
  const altering = await serveWebHandler(async (request, segments) => {
    const response = await handleSandboxWechatApi(request, segments, getDb());
    if (!segments.join('/').endsWith('billdownload/file') || response.status !== 200) return response;
    const file = gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8');
    return new Response(gzipSync(Buffer.from(alter(file), 'utf8')), { status: 200, headers: response.headers });
  }, '/sandbox/wechat');
  const honest = process.env.WECHAT_API_BASE_URL;
  process.env.WECHAT_API_BASE_URL = altering.url;
  try {
    return await reconcileWechat(day);
  } finally {
    process.env.WECHAT_API_BASE_URL = honest;
    await altering.close();
  }
}

async function stagedRowsOf(runId: number): Promise<number> {
  const { rows } = await getDb().execute<{ staged: number }>(sql`SELECT count(*)::int AS staged FROM reconciliation_upstream_rows WHERE run_id = ${runId}`);
  return rows[0]!.staged;
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

  it('a payment WeChat took after the order was closed here is a late payment, never a creditable missing_here; an older missing_here of it is not credited either', async () => {
    const day = await aDayOfItsOwn();
    /** WeChat could not be asked, so the order was closed here only (an hour before noon); then the payer paid. */
    const closedThenPaid = async (amount: string, notify: boolean) => {
      const order = await anOrder(amount);
      const closedAt = beijingHour(day, 11);
      expect(await closePendingOrders(getDb(), wechatNotices, eq(orders.orderNo, order.orderNo), closedAt)).toBe(1);
      await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify });
      await happenedOn(day, order.orderNo);
      return order;
    };
    const recorded = await closedThenPaid('23.00', true);
    const { rows: callbacks } = await getDb().execute<{ verdict: string }>(sql`SELECT verdict FROM upstream_callbacks WHERE out_trade_no = ${recorded.orderNo}`);
    expect(callbacks).toEqual([{ verdict: 'late_payment' }]);
    const unrecorded = await closedThenPaid('24.00', false);

    const outcome = await reconcileWechat(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamCount: 2, upstreamTotalMinor: 4700n, oursCount: 0, findingCount: 2 });
    expect(await findingsOf(outcome.runId)).toEqual([
      { kind: 'late_payment', reference: recorded.orderNo, upstream_amount_minor: '2300', ours_amount_minor: '2300', upstream_status: 'success' },
      { kind: 'late_payment_unrecorded', reference: unrecorded.orderNo, upstream_amount_minor: '2400', ours_amount_minor: '2400', upstream_status: 'success' },
    ]);
    const attention = (await openFindings(getDb(), 1000)).map((item) => item.reference);
    expect(attention).toContain(unrecorded.orderNo);
    expect(attention).not.toContain(recorded.orderNo);

    // What a run made before late payments had their kinds found: "paid upstream, not here" for both.
    await getDb().execute(sql`UPDATE reconciliation_findings SET kind = 'missing_here' WHERE run_id = ${outcome.runId}`);
    const { rows: stale } = await getDb().execute<{ id: string; reference: string }>(sql`SELECT id, reference FROM reconciliation_findings WHERE run_id = ${outcome.runId} ORDER BY reference = ${recorded.orderNo} DESC`);
    await expect(creditFinding(getDb(), { findingId: Number(stale[0]!.id), actor: 'operator:test', now: new Date() })).rejects.toThrow(
      `order ${recorded.orderNo} is closed and this payment is its late payment (it arrived after the close): a late payment is never credited; refund it from the order's page instead`,
    );
    await expect(creditFinding(getDb(), { findingId: Number(stale[1]!.id), actor: 'operator:test', now: new Date() })).rejects.toThrow(
      `order ${unrecorded.orderNo} was closed at ${beijingHour(day, 11).toISOString()} and the upstream took it at ${beijingHour(day, 12).toISOString()}: a payment after the close is never credited; refund it instead (in the upstream's console)`,
    );
    const { rows: after } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no IN (${recorded.orderNo}, ${unrecorded.orderNo})`);
    expect(after).toEqual([{ status: 'closed' }, { status: 'closed' }]);
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
    // WeChat accepted it the next day (so its bill lists it then), here it was accepted during this one.
    const notInBill = await refundThroughApi(order, '3.00', afternoon);
    await getDb().execute(sql`UPDATE sandbox_wechat_refunds SET created_at = ${new Date(noon.getTime() + 86_400_000)} WHERE out_refund_no = ${notInBill}`);
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
    const outcome = await reconcileWithBillAltered(day, (file) => {
      expect(file).toContain('`9.90');
      return file.replace('`9.90', '`9.09');
    });
    expect(outcome).toMatchObject({ status: 'failed', totals: null, detail: expect.stringMatching(new RegExp(`^WeChat Pay trade bill ${day} of mchid \\S+ \\(bill_type ALL\\): its SHA1 [0-9a-f]{40} is not the hash_value [0-9a-f]{40} WeChat Pay announced$`)) });
    expect(await findingsOf(outcome.runId)).toEqual([]);
    expect(await stagedRowsOf(outcome.runId)).toBe(0);
    expect(await reconcileWechat(day)).toMatchObject({ status: 'complete', totals: { upstreamCount: 1, upstreamTotalMinor: 990n, findingCount: 0 } });
  });
});

/** `hours` after the start of `day`, Beijing time (34 is 10:00 the next day). */
const beijingHour = (day: string, hours: number) => new Date(beijingDayBounds(day)!.start.getTime() + hours * 3600_000);
const nextDay = (day: string) => beijingDayOf(beijingHour(day, 36));

describe('reconciling WECHAT as WeChat Pay makes its bills', () => {
  it('a bill in no layout WeChat documents fails the run naming the file and the check, stages nothing, and is read again once it is right', async () => {
    const day = await aDayOfItsOwn();
    const order = await anOrder('9.90');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    const outcome = await reconcileWithBillAltered(day, (file) => file.replace(',订单金额,申请退款金额,', ',金额,退款申请,'));
    expect(outcome).toMatchObject({ status: 'failed', totals: null });
    expect(outcome.detail).toMatch(new RegExp(`^WeChat Pay trade bill ${day} of mchid \\S+ \\(bill_type ALL\\): the bill's header is in no layout WeChat Pay documents`));
    expect(await stagedRowsOf(outcome.runId)).toBe(0);
    expect(await reconcileWechat(day)).toMatchObject({ status: 'complete', totals: { upstreamCount: 1, findingCount: 0 } });
  });


  it('a refund accepted on D and done on D+1 is in D\'s bill as processing: matched on D, no false missing_upstream on D+1; finished at WeChat\'s success_time', async () => {
    const day = await aDayOfItsOwn();
    await clearDay(nextDay(day));
    const order = await anOrder('70.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    await planWechatRefund(getDb(), order.orderNo, 'processing');
    // Asked for (and accepted by WeChat) late on D; a card refund, done the next afternoon.
    const refundNo = await refundThroughApi(order, '15.00', beijingHour(day, 23.5), 'processing');
    const doneAt = beijingHour(day, 24 + 15);
    await settleSandboxWechatRefund(getDb(), refundNo, 'SUCCESS', { notify: false, now: doneAt });
    const { rows: ours } = await getDb().execute<{ id: string }>(sql`SELECT id FROM refunds WHERE refund_no = ${refundNo}`);
    expect((await checkRefund(getDb(), wechatRefunds as Extract<typeof wechatRefunds, { offered: true }>, Number(ours[0]!.id), new Date())).state).toBe('succeeded');
    const { rows: settled } = await getDb().execute<{ state: string; finished_at: Date }>(sql`SELECT state, finished_at FROM refunds WHERE refund_no = ${refundNo}`);
    expect(settled[0]!.state).toBe('succeeded');
    expect(new Date(settled[0]!.finished_at).toISOString()).toBe(doneAt.toISOString());

    const onDay = await reconcileWechat(day);
    expect(onDay.status, onDay.detail ?? '').toBe('complete');
    expect(onDay.totals).toMatchObject({ upstreamRefundCount: 1, upstreamRefundTotalMinor: 1500n, findingCount: 0 });
    const following = await reconcileWechat(nextDay(day));
    expect(following.status, following.detail ?? '').toBe('complete');
    expect(await findingsOf(following.runId)).toEqual([]);
  });

  it('npm run sandbox -- wechat refund-settle --success-time makes a refund accepted on D succeed on D+1 on demand: matched on D, nothing on D+1', async () => {
    const day = await aDayOfItsOwn();
    await clearDay(nextDay(day));
    const order = await anOrder('80.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    const planned = await runSandbox(['wechat', 'refund-plan', '--order', order.orderNo, '--plan', 'processing', '--json']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const refundNo = await refundThroughApi(order, '12.00', beijingHour(day, 22), 'processing');

    const refused = async (args: string[], reason: string) => {
      const run = await runSandbox(['wechat', 'refund-settle', '--refund', refundNo, ...args]);
      expect(run.exitCode, run.stdout).toBe(1);
      expect(run.stderr).toContain(reason);
    };
    await refused(['--success-time', '2026-03-02 15:00'], 'option --success-time must be an instant as ISO 8601 with its offset, such as 2026-03-02T15:00:00+08:00; got "2026-03-02 15:00"');
    await refused(['--status', 'CLOSED', '--success-time', beijingHour(day, 30).toISOString()], 'option --success-time applies to --status SUCCESS only');
    await refused(['--success-time', new Date(Date.now() + 86_400_000).toISOString()], 'option --success-time must not be in the future');
    await refused(['--success-time', beijingHour(day, 21).toISOString()], `option --success-time ${beijingHour(day, 21).toISOString()} is before the simulator accepted refund ${refundNo}`);
    expect((await sandboxWechatRefundNamed(getDb(), refundNo))?.status).toBe('PROCESSING');

    // The card took its time: done at 16:00 the next day, Beijing time, as written with its offset.
    const doneAt = beijingHour(day, 24 + 16);
    const written = `${nextDay(day)}T16:00:00+08:00`;
    const settled = await runSandbox(['wechat', 'refund-settle', '--refund', refundNo, '--success-time', written, '--json']);
    expect(settled.exitCode, settled.stderr).toBe(0);
    expect(JSON.parse(settled.stdout)).toEqual({ refund: refundNo, status: 'SUCCESS', successTime: doneAt.toISOString() });
    // WeChat's REFUND.SUCCESS reaches the service (sent by the command), which takes WeChat's success_time.
    const stateHere = async () => (await getDb().execute<{ state: string; finished_at: Date | null }>(sql`SELECT state, finished_at FROM refunds WHERE refund_no = ${refundNo}`)).rows[0]!;
    await eventually(async () => (await stateHere()).state === 'succeeded', 'the refund to be succeeded here');
    expect(new Date((await stateHere()).finished_at!).toISOString()).toBe(doneAt.toISOString());

    const onDay = await reconcileWechat(day);
    expect(onDay.status, onDay.detail ?? '').toBe('complete');
    expect(onDay.totals).toMatchObject({ upstreamRefundCount: 1, upstreamRefundTotalMinor: 1200n, findingCount: 0 });
    const following = await reconcileWechat(nextDay(day));
    expect(following.status, following.detail ?? '').toBe('complete');
    expect(await findingsOf(following.runId)).toEqual([]);
  });

  it('a product name with a comma (quoted after its backtick) is read, not split', async () => {
    const day = await aDayOfItsOwn();
    const order = await anOrder('19.90', '季度会员, 含税 "标准版"');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    const outcome = await reconcileWechat(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamCount: 1, upstreamTotalMinor: 1990n, oursCount: 1, findingCount: 0 });
  });

  it('the older bill layout (总金额, no 订单金额 / 申请退款金额) is read like the current one', async () => {
    const day = await aDayOfItsOwn();
    const { mchId } = await sandboxWechatKeysOf(getDb());
    await planWechatBill(getDb(), { mchId, day, plan: 'legacy' });
    const order = await anOrder('45.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    const noon = await happenedOn(day, order.orderNo);
    await refundThroughApi(order, '5.00', new Date(noon.getTime() + 3600_000));
    const outcome = await reconcileWechat(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamCount: 1, upstreamTotalMinor: 4500n, upstreamRefundCount: 1, upstreamRefundTotalMinor: 500n, findingCount: 0 });
    await planWechatBill(getDb(), { mchId, day, plan: null });
  });

  it('NO_STATEMENT_EXIST before 10:00 the next day is no empty day: unavailable until then, complete and empty after', async () => {
    const day = await aDayOfItsOwn();
    const early = await reconcileWechat(day, () => beijingHour(day, 33.5));
    expect(early.status).toBe('unavailable');
    expect(early.detail).toMatch(/NO_STATEMENT_EXIST before 10:00/);
    const later = await reconcileWechat(day, () => beijingHour(day, 34.5));
    expect(later).toMatchObject({ status: 'complete', totals: { upstreamCount: 0, findingCount: 0 } });
  });

  it('STATEMENT_CREATING is "not made yet": the job stays green and asks again after 10:00, then every 30 minutes, until the bill is read', async () => {
    const day = await aDayOfItsOwn();
    const { mchId } = await sandboxWechatKeysOf(getDb());
    await planWechatBill(getDb(), { mchId, day, plan: 'creating' });
    const order = await anOrder('8.80');
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: true });
    await happenedOn(day, order.orderNo);
    const clock = new ManualClock(beijingHour(day, 33));
    // Other channels' scopes of this shared database (no chain node here) may fail the job run: WeChat's must not.
    const failures: string[] = [];
    const attempts: string[] = [];
    const runAt = async (hours: number) => {
      clock.set(beijingHour(day, hours));
      // Another test file's run of the job holds its lock for a moment: this one waits its turn.
      for (let tries = 0; tries < 200; tries += 1) {
        const ran = await runJobExclusively(reconciliationJob(CHANNELS), { db: getDb(), clock, log: () => undefined }).catch((error: Error) => failures.push(error.message) > 0);
        if (ran) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { rows } = await getDb().execute<{ status: string; finished_at: Date }>(sql`SELECT status, finished_at FROM reconciliation_runs WHERE day = ${day} AND channel = 'WECHAT'`);
      const run = rows[0]!;
      if (new Date(run.finished_at).getTime() === clock.now().getTime()) attempts.push(`${hours}:${run.status}`);
      return run.status;
    };
    expect(await runAt(33)).toBe('unavailable');
    await runAt(33.25);
    await runAt(33.75);
    expect(await runAt(34)).toBe('unavailable');
    await runAt(34.25);
    await runAt(34.5);
    await planWechatBill(getDb(), { mchId, day, plan: null });
    await runAt(34.75);
    expect(await runAt(35)).toBe('complete');
    await runAt(35.25);
    expect(attempts).toEqual(['33:unavailable', '34:unavailable', '34.5:unavailable', '35:complete']);
    expect(failures.filter((failure) => failure.includes('WECHAT'))).toEqual([]);
    const { rows } = await getDb().execute<{ detail: string | null }>(sql`SELECT detail FROM reconciliation_runs WHERE day = ${day} AND channel = 'WECHAT'`);
    expect(rows[0]!.detail).toBeNull();
  });

  it('npm run admin -- reconcile of a day whose bill WeChat is still making reports it unavailable and exits 0, not a failure', async () => {
    const day = await aDayOfItsOwn();
    const { mchId } = await sandboxWechatKeysOf(getDb());
    await planWechatBill(getDb(), { mchId, day, plan: 'creating' });
    const run = await runAdmin(['reconcile', '--date', day, '--channel', 'WECHAT'], { timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('unavailable');
    expect(run.stdout).toContain('STATEMENT_CREATING');
    await planWechatBill(getDb(), { mchId, day, plan: null });
  });

  it("a payment to the mchid that this service never made is one low-severity finding (not_made_here), not on the attention list", async () => {
    const day = await aDayOfItsOwn();
    const { mchId } = await sandboxWechatKeysOf(getDb());
    const elsewhere = await orderOfAnotherApp(getDb(), { mchId, appId: 'wxshop00000000001', outTradeNo: `SHOP-${Date.now()}`, amountMinor: 1200n, paidAt: beijingHour(day, 9) });
    await refundInMerchantPlatform(getDb(), { transactionId: elsewhere.transactionId, amountMinor: 200n, outRefundNo: `SHOPRF-${Date.now()}`, at: beijingHour(day, 10) });
    const missingHere = await anOrder('20.00');
    await paySandboxWechatOrder(getDb(), { outTradeNo: missingHere.orderNo }, { notify: false });
    await happenedOn(day, missingHere.orderNo);
    const outcome = await reconcileWechat(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect((await findingsOf(outcome.runId)).map(({ kind, reference }) => ({ kind, reference }))).toEqual([
      { kind: 'missing_here', reference: missingHere.orderNo },
      { kind: 'not_made_here', reference: elsewhere.outTradeNo },
      { kind: 'not_made_here', reference: elsewhere.outTradeNo },
    ]);
    const attention = await openFindings(getDb(), 1000);
    expect(attention.map((item) => item.reference)).toContain(missingHere.orderNo);
    expect(attention.map((item) => item.reference)).not.toContain(elsewhere.outTradeNo);
  });

  it('two credentials on one mchid (two shops of one WeChat Pay merchant account) read its bill once, both shops\' orders counted', async () => {
    const day = await aDayOfItsOwn();
    const other = await aMerchant();
    const added = await addSandboxCredential(getDb(), { appId: other.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
    try {
      const { rows: credentials } = await getDb().execute<{ mch_id: string }>(sql`SELECT DISTINCT mch_id FROM upstream_credentials WHERE channel = 'WECHAT' AND review_status = 'approved'`);
      expect(credentials).toHaveLength(1);
      const ours = await anOrder('11.00');
      await paySandboxWechatOrder(getDb(), { outTradeNo: ours.orderNo }, { notify: true });
      await happenedOn(day, ours.orderNo);
      const fields = { appId: other.appId, merchantOrderNo: `WXS-${process.pid}-${Date.now()}`, payType: 'WECHAT', payMethod: 'native', amount: '12.00', productName: '季度会员', notifyUrl: 'https://merchant.example/notify' };
      const { json } = (await bed.app.signedPost(SUBMIT, fields, other.appSecret)) as { json: { code: number; data: { platformOrderNo: string } } };
      expect(json.code).toBe(0);
      await paySandboxWechatOrder(getDb(), { outTradeNo: json.data.platformOrderNo }, { notify: true });
      await happenedOn(day, json.data.platformOrderNo);

      const outcomes = await reconcileDay(getDb(), CHANNELS, { day, now: () => new Date(), channels: ['WECHAT'] });
      expect(outcomes.map(({ status, scope }) => ({ status, scope }))).toEqual([{ status: 'complete', scope: `account:${credentials[0]!.mch_id}` }]);
      expect(outcomes[0]!.totals).toMatchObject({ upstreamCount: 2, upstreamTotalMinor: 2300n, oursCount: 2, oursTotalMinor: 2300n, findingCount: 0 });
      const { rows: runs } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM reconciliation_runs WHERE day = ${day} AND channel = 'WECHAT'`);
      expect(runs[0]!.count).toBe(1);
    } finally {
      // Out of use again (still on the account's scope): the other tests' runs are as they were.
      await getDb().execute(sql`UPDATE upstream_credentials SET enabled = false, deleted_at = now() WHERE id = ${added.id}`);
    }
  });
});
