import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { NotificationWorker } from '../notifications/notification-worker';
import { CHANNELS, notificationFieldsOf } from '../channels';
import { findAlipayCheckout } from '../channels/alipay/checkout-view';
import { CLOSE_WITHOUT_ANSWER_AFTER_MS, pollPendingAlipayOrders } from '../channels/alipay/poll-pending-orders';
import { alipayConfig } from '../channels/alipay/config';
import { alipaySdkFor, alipayTimestamp } from '../channels/alipay/client';
import { findBoundCredential } from '../credentials/find-bound-credential';
import { completeOrderManually } from '../orders/complete-order-manually';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { alipaySubmit, anAlipayMerchant } from '../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { paySandboxTrade } from '../../sandbox/alipay/pay';
import { refundInConsole, tradeOfAnotherApp } from '../../sandbox/alipay/bill';
import { planTradeRefund, settleProcessingRefund } from '../../sandbox/alipay/refund';
import { alipayRefunds } from '../channels/alipay/refunds';
import { checkRefund } from '../refunds/send-refund';
import { findingsOfDay, openFindings } from './reconciliation-view';
import { beijingDayBounds, beijingDayOf } from './beijing-day';
import { creditFinding } from './credit-finding';
import { reconcileDay } from './reconcile-day';
import { reconciliationJob } from './reconcile-job';
import { runJobExclusively } from '../jobs/periodic-job';
import { ManualClock } from '../clock';
import { runAdmin } from '../cli/run-admin-for-tests';
import { serveWebHandler } from '../../test/web-handler-server';
import { handleGateway } from '../../sandbox/alipay/gateway';
import { handleBillDownload } from '../../sandbox/alipay/bill';
import { encodeGbk } from '../../sandbox/alipay/gbk';
import { zipStream } from '../../sandbox/alipay/zip-stream';
import { alipaySandboxKeys } from '../channels/alipay/sandbox-keys';
import { saveToTemporaryFile } from './download';
import { textLines } from './text-lines';
import { aDistinctPastDay } from '../../test/past-days';
import { zipEntries } from './zip-entries';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;

async function anOrder(amount: string, productName = '月度会员') {
  const fields = alipaySubmit(merchant.appId, { notifyUrl: receiver.url, amount, productName });
  const { json } = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)) as { json: { code: number; data: { platformOrderNo: string; payUrl: string } } };
  expect(json.code).toBe(0);
  return { orderNo: json.data.platformOrderNo, merchantOrderNo: fields.merchantOrderNo as string, token: json.data.payUrl.split('/pay/')[1]! };
}

/** The payer opens the cashier at Alipay and pays; `notify` false loses Alipay's notification. */
async function payAtAlipay(order: { orderNo: string; token: string }, notify: boolean) {
  const checkout = await findAlipayCheckout(getDb(), order.token);
  expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
  return (await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify })).trade;
}

/** Time passes: what happened today happened at noon of `day`, at Alipay and here. */
async function happenedOn(day: string, orderNo: string) {
  const noon = new Date(beijingDayBounds(day)!.start.getTime() + 12 * 3600_000);
  await getDb().execute(sql`UPDATE sandbox_alipay_trades SET paid_at = ${noon}, created_at = ${noon} WHERE out_trade_no = ${orderNo} AND paid_at IS NOT NULL`);
  await getDb().execute(sql`UPDATE orders SET paid_at = ${noon} WHERE order_no = ${orderNo} AND paid_at IS NOT NULL`);
  return noon;
}

async function findingsOf(runId: number) {
  const { rows } = await getDb().execute<{ id: string; kind: string; reference: string; upstream_amount_minor: string | null; ours_amount_minor: string | null }>(
    sql`SELECT id, kind, reference, upstream_amount_minor, ours_amount_minor FROM reconciliation_findings WHERE run_id = ${runId} ORDER BY kind, reference`,
  );
  return rows;
}

async function reconcileAlipay(day: string) {
  const outcomes = await reconcileDay(getDb(), CHANNELS, { day, now: () => new Date(), channels: ['ALIPAY'] });
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

/** A refund asked for through the open API (Alipay's simulator settles it at once), moved to `at` on both sides. */
async function refundThroughApi(order: { orderNo: string; merchantOrderNo: string }, amount: string, at: Date) {
  const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `RR-${order.orderNo}-${amount.replace('.', '_')}`, refundAmount: amount, reason: 'returned' };
  const { json } = (await bed.app.signedPost('/v1/api/open/refund/submit', fields, merchant.appSecret)) as { json: { code: number; data: { refundNo: string; status: string } } };
  expect(json).toMatchObject({ code: 0, data: { status: 'succeeded' } });
  await getDb().execute(sql`UPDATE sandbox_alipay_refunds SET settled_at = ${at} WHERE out_request_no = ${json.data.refundNo}`);
  await getDb().execute(sql`UPDATE refunds SET finished_at = ${at} WHERE refund_no = ${json.data.refundNo}`);
  return json.data.refundNo;
}

async function refundFindingsOf(runId: number) {
  const { rows } = await getDb().execute<{ kind: string; reference: string; upstream_reference: string; upstream_amount_minor: string | null; ours_amount_minor: string | null }>(
    sql`SELECT kind, reference, upstream_reference, upstream_amount_minor, ours_amount_minor FROM reconciliation_findings WHERE run_id = ${runId} ORDER BY kind, reference`,
  );
  return rows;
}

/**
 * Reconciles `day` against the simulator whose bill archives (Alipay signs the download URL's answer, not the file)
 * arrive changed by `alter`.
 */
async function reconcileWithArchiveAltered(day: string, alter: (archive: Response) => Promise<Response>) {
  const altering = await serveWebHandler(async (request, path) => {
    if (path.join('/') === 'gateway.do') return handleGateway(request, getDb());
    if (path.join('/') === 'bill/download') return alter(handleBillDownload(request, getDb(), await alipaySandboxKeys(getDb())));
    return new Response('not found', { status: 404 });
  }, '/sandbox/alipay');
  const honest = process.env.ALIPAY_GATEWAY_URL;
  process.env.ALIPAY_GATEWAY_URL = `${altering.url}/gateway.do`;
  try {
    return await reconcileAlipay(day);
  } finally {
    process.env.ALIPAY_GATEWAY_URL = honest;
    await altering.close();
  }
}

/** The archive again, each file's lines (GBK) changed by `alter` (given the file's name). */
async function withLinesAltered(archive: Response, alter: (name: string, line: string) => string): Promise<Response> {
  const saved = await saveToTemporaryFile(archive);
  try {
    const entries = await zipEntries(saved.path);
    const files = await Promise.all(
      entries.map(async (entry) => {
        const lines: string[] = [];
        for await (const line of textLines(entry.open(), 'gbk')) lines.push(alter(entry.name, line));
        return { nameBytes: encodeGbk(entry.name), content: (async function* () { yield encodeGbk(`${lines.join('\r\n')}\r\n`); })() };
      }),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of zipStream(files)) chunks.push(chunk);
    return new Response(new Uint8Array(Buffer.concat(chunks)), { status: 200, headers: { 'content-type': 'application/zip' } });
  } finally {
    await saved.remove();
  }
}

async function stagedRowsOf(runId: number): Promise<number> {
  const { rows } = await getDb().execute<{ staged: number }>(sql`SELECT count(*)::int AS staged FROM reconciliation_upstream_rows WHERE run_id = ${runId}`);
  return rows[0]!.staged;
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

describe('reconciling a day of ALIPAY against the simulated Alipay trade bill', () => {
  it('finds each kind of difference exactly once, with the totals of both sides, and the same again when repeated', async () => {
    const day = aDistinctPastDay();
    const matched = await anOrder('10.00');
    await payAtAlipay(matched, true);
    await happenedOn(day, matched.orderNo);

    const missingHere = await anOrder('20.00');
    await payAtAlipay(missingHere, false);
    await happenedOn(day, missingHere.orderNo);

    const amountDiffers = await anOrder('30.00');
    await payAtAlipay(amountDiffers, true);
    await happenedOn(day, amountDiffers.orderNo);
    await getDb().execute(sql`UPDATE sandbox_alipay_trades SET amount_minor = 3001 WHERE out_trade_no = ${amountDiffers.orderNo}`);

    const missingUpstream = await anOrder('40.00');
    await completeOrderManually(getDb(), { appId: merchant.appId, merchantOrderNo: missingUpstream.merchantOrderNo, reason: 'said to be paid', actor: 'test', now: new Date() });
    await happenedOn(day, missingUpstream.orderNo);

    const refunded = await anOrder('50.00');
    const refundedTrade = await payAtAlipay(refunded, true);
    const noon = await happenedOn(day, refunded.orderNo);
    await refundInConsole(getDb(), { tradeNo: refundedTrade.tradeNo, amountMinor: 1250n, outRequestNo: `R-${refunded.orderNo}`, at: new Date(noon.getTime() + 3600_000) });

    const outcome = await reconcileAlipay(day);
    expect(outcome.status).toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamCount: 4, upstreamTotalMinor: 11001n, upstreamRefundCount: 1, upstreamRefundTotalMinor: 1250n, oursCount: 4, oursTotalMinor: 13000n, findingCount: 4 });
    const expected = [
      { kind: 'amount_differs', reference: amountDiffers.orderNo, upstream_amount_minor: '3001', ours_amount_minor: '3000' },
      { kind: 'missing_here', reference: missingHere.orderNo, upstream_amount_minor: '2000', ours_amount_minor: '2000' },
      { kind: 'missing_upstream', reference: missingUpstream.orderNo, upstream_amount_minor: null, ours_amount_minor: '4000' },
      { kind: 'refund_outside', reference: refunded.orderNo, upstream_amount_minor: '1250', ours_amount_minor: '5000' },
    ];
    expect((await findingsOf(outcome.runId)).map(({ id: _id, ...rest }) => rest)).toEqual(expected);

    const again = await reconcileAlipay(day);
    expect(again.runId).toBe(outcome.runId);
    expect((await findingsOf(again.runId)).map(({ id: _id, ...rest }) => rest)).toEqual(expected);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM reconciliation_runs WHERE day = ${day} AND channel = 'ALIPAY'`);
    expect(rows[0]!.count).toBe(1);
    const { rows: staged } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM reconciliation_upstream_rows WHERE run_id = ${outcome.runId}`);
    expect(staged[0]!.count).toBe(0);
  });

  it('refunds made through the service are matched with the bill by refund number, amount and state; a console refund is outside', async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('80.00');
    const trade = await payAtAlipay(order, true);
    const noon = await happenedOn(day, order.orderNo);
    const afternoon = new Date(noon.getTime() + 3 * 3600_000);
    const matched = await refundThroughApi(order, '10.00', afternoon);
    const amountDiffers = await refundThroughApi(order, '20.00', afternoon);
    await getDb().execute(sql`UPDATE sandbox_alipay_refunds SET amount_minor = 1999 WHERE out_request_no = ${amountDiffers}`);
    // Settled at Alipay on another day (its bill lacks it), succeeded here during this one.
    const notInBill = await refundThroughApi(order, '5.00', afternoon);
    await getDb().execute(sql`UPDATE sandbox_alipay_refunds SET settled_at = ${new Date(noon.getTime() - 30 * 86_400_000)} WHERE out_request_no = ${notInBill}`);
    // Refunded at Alipay, failed here.
    const failedHere = await refundThroughApi(order, '1.00', afternoon);
    await getDb().execute(sql`UPDATE refunds SET state = 'failed', failure_reason = 'test' WHERE refund_no = ${failedHere}`);
    await refundInConsole(getDb(), { tradeNo: trade.tradeNo, amountMinor: 700n, outRequestNo: `C-${order.orderNo}`, at: afternoon });

    const outcome = await reconcileAlipay(day);
    expect(outcome.status).toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamCount: 1, upstreamTotalMinor: 8000n, upstreamRefundCount: 4, upstreamRefundTotalMinor: 3799n, findingCount: 4 });
    expect(await refundFindingsOf(outcome.runId)).toEqual([
      { kind: 'amount_differs', reference: order.orderNo, upstream_reference: amountDiffers, upstream_amount_minor: '1999', ours_amount_minor: '2000' },
      { kind: 'missing_upstream', reference: order.orderNo, upstream_reference: notInBill, upstream_amount_minor: null, ours_amount_minor: '500' },
      { kind: 'refund_outside', reference: order.orderNo, upstream_reference: `C-${order.orderNo}`, upstream_amount_minor: '700', ours_amount_minor: '8000' },
      { kind: 'status_differs', reference: order.orderNo, upstream_reference: failedHere, upstream_amount_minor: '100', ours_amount_minor: '100' },
    ]);
    expect((await refundFindingsOf(outcome.runId)).map((finding) => finding.upstream_reference)).not.toContain(matched);
  });

  it('a day where both sides agree is clean, and today has no bill yet (T+1)', async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('66.60', '年度会员，含税');
    await payAtAlipay(order, true);
    await happenedOn(day, order.orderNo);
    const outcome = await reconcileAlipay(day);
    expect(outcome).toMatchObject({ status: 'complete', totals: { upstreamCount: 1, upstreamTotalMinor: 6660n, oursCount: 1, oursTotalMinor: 6660n, findingCount: 0 } });
    expect(await findingsOf(outcome.runId)).toEqual([]);

    const today = await reconcileAlipay(beijingDayOf(new Date()));
    expect(today.status).toBe('unavailable');
    expect(today.detail).toContain('has not ended');
    // Asked anyway, Alipay has no bill for today (T+1).
    const credential = (await findBoundCredential(getDb(), { merchantId: merchant.id, channel: 'ALIPAY', credentialId: merchant.credentialId }))!;
    const answer = await alipaySdkFor(alipayConfig(), credential).exec('alipay.data.dataservice.bill.downloadurl.query', { bizContent: { bill_type: 'trade', bill_date: beijingDayOf(new Date()) }, ...alipayTimestamp() }, { validateSign: true });
    expect(answer).toMatchObject({ code: '40004', subCode: 'isp.bill_not_exist' });
  });

  it('a lost notification and a poll that could not reach Alipay: the next reconciliation finds the payment, credited once, the merchant notified', async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('88.00');
    const trade = await payAtAlipay(order, false);
    const { rows: created } = await getDb().execute<{ expires_at: Date }>(sql`SELECT expires_at FROM orders WHERE order_no = ${order.orderNo}`);
    // The poller asks an Alipay it cannot reach until the order's window is long over, then closes it.
    const unreachable = { ...alipayConfig(), gatewayUrl: 'http://127.0.0.1:9/gateway.do', timeoutMs: 1_000 };
    const late = new Date(new Date(created[0]!.expires_at).getTime() + CLOSE_WITHOUT_ANSWER_AFTER_MS + 60_000);
    await getDb().execute(sql`UPDATE orders SET upstream_check_after = now() - interval '1 minute' WHERE order_no = ${order.orderNo}`);
    await pollPendingAlipayOrders(getDb(), late, { config: unreachable });
    const { rows: closed } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no = ${order.orderNo}`);
    expect(closed[0]!.status).toBe('closed');
    const paidUpstreamAt = await happenedOn(day, order.orderNo);

    const outcome = await reconcileAlipay(day);
    const [finding] = await findingsOf(outcome.runId);
    expect(finding).toMatchObject({ kind: 'missing_here', reference: order.orderNo, upstream_amount_minor: '8800', ours_amount_minor: '8800' });

    const credited = await creditFinding(getDb(), { findingId: Number(finding!.id), actor: 'operator:test', now: new Date() });
    expect(credited.orderNo).toBe(order.orderNo);
    await expect(creditFinding(getDb(), { findingId: Number(finding!.id), actor: 'operator:test', now: new Date() })).rejects.toThrow(/credited already/);
    const { rows: paid } = await getDb().execute<{ status: string; paid_via: string; trade_no: string; paid_at: Date }>(sql`SELECT status, paid_via, trade_no, paid_at FROM orders WHERE order_no = ${order.orderNo}`);
    expect(paid[0]).toMatchObject({ status: 'paid', paid_via: 'manual', trade_no: trade.tradeNo });
    expect(new Date(paid[0]!.paid_at).getTime()).toBe(paidUpstreamAt.getTime());
    const { rows: audit } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM audit_log WHERE subject = ${`order:${order.orderNo}`} AND action = 'order.complete'`);
    expect(audit[0]!.count).toBe(1);

    await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 }).runOnce();
    const notified = receiver.received.filter((entry) => entry.form.platformOrderNo === order.orderNo);
    expect(notified).toHaveLength(1);
    expect(notified[0]).toMatchObject({ signatureValid: true, form: { status: 'PAID', amount: '88.00' } });

    // Reconciled again, the day is clean: the order is paid as Alipay says.
    const after = await reconcileAlipay(day);
    expect(after.totals?.findingCount).toBe(0);
  });

  it('a payment Alipay took after the merchant closed the order is a late payment, never a creditable missing_here: recorded here or not', async () => {
    const day = aDistinctPastDay();
    /** The merchant closes the order while its signed pay URL is open in the payer's browser; the payer pays then. */
    const closedThenPaid = async (amount: string, notify: boolean) => {
      const order = await anOrder(amount);
      const checkout = await findAlipayCheckout(getDb(), order.token);
      const closed = await bed.app.signedPost('/v1/api/open/order/close', { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo }, merchant.appSecret);
      expect(closed.json).toMatchObject({ code: 0, data: { status: 3 } });
      expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
      await paySandboxTrade(getDb(), { outTradeNo: order.orderNo }, { notify });
      const paidAt = await happenedOn(day, order.orderNo);
      await getDb().execute(sql`UPDATE orders SET closed_at = ${new Date(paidAt.getTime() - 3600_000)} WHERE order_no = ${order.orderNo}`);
      return order;
    };
    const recorded = await closedThenPaid('21.00', true);
    const unrecorded = await closedThenPaid('22.00', false);

    const outcome = await reconcileAlipay(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    const found = await findingsOf(outcome.runId);
    expect(found.map(({ id: _id, ...rest }) => rest)).toEqual([
      { kind: 'late_payment', reference: recorded.orderNo, upstream_amount_minor: '2100', ours_amount_minor: '2100' },
      { kind: 'late_payment_unrecorded', reference: unrecorded.orderNo, upstream_amount_minor: '2200', ours_amount_minor: '2200' },
    ]);
    const [late, unheardOf] = found;
    await expect(creditFinding(getDb(), { findingId: Number(late!.id), actor: 'operator:test', now: new Date() })).rejects.toThrow(
      `order ${recorded.orderNo} is closed and this payment is its late payment (it arrived after the close): a late payment is never credited; refund it from the order's page instead`,
    );
    await expect(creditFinding(getDb(), { findingId: Number(unheardOf!.id), actor: 'operator:test', now: new Date() })).rejects.toThrow(/was closed at \S+ and the upstream took it at \S+: a payment after the close is never credited; refund it instead/);
    const { rows: orders } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no IN (${recorded.orderNo}, ${unrecorded.orderNo})`);
    expect(orders).toEqual([{ status: 'closed' }, { status: 'closed' }]);
    const shown = await findingsOfDay(getDb(), day, { channel: 'ALIPAY' });
    expect(shown.map(({ kind, creditable }) => ({ kind, creditable }))).toEqual([
      { kind: 'late_payment', creditable: false },
      { kind: 'late_payment_unrecorded', creditable: false },
    ]);
    // The recorded one is the attention list's already (the late payment); the unrecorded one is news.
    const attention = (await openFindings(getDb(), 1000)).map((item) => item.reference);
    expect(attention).toContain(unrecorded.orderNo);
    expect(attention).not.toContain(recorded.orderNo);
  });

  it('a bill that fails its checks (not a zip; a detail file in no documented layout) fails the run naming the file and the check, stages nothing, and is read again once it is right', async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('19.90');
    await payAtAlipay(order, true);
    await happenedOn(day, order.orderNo);
    const later = await anOrder('5.10');
    await payAtAlipay(later, true);
    await happenedOn(day, later.orderNo);
    const bill = `Alipay trade bill ${day} of account:\\S+`;

    const notZip = await reconcileWithArchiveAltered(day, async () => new Response('<html>系统繁忙</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(notZip).toMatchObject({ status: 'failed', totals: null, detail: expect.stringMatching(new RegExp(`^${bill}: the bill archive is not a zip file \\(no end of central directory\\)$`)) });
    expect(await findingsOf(notZip.runId)).toEqual([]);
    expect(await stagedRowsOf(notZip.runId)).toBe(0);

    // The detail file's amount column renamed: its header is in no layout Alipay documents.
    const renamed = await reconcileWithArchiveAltered(day, (archive) => withLinesAltered(archive, (name, line) => (name.endsWith('_业务明细.csv') ? line.replace('订单金额（元）', '金额') : line)));
    expect(renamed).toMatchObject({ status: 'failed', totals: null });
    expect(renamed.detail).toMatch(new RegExp(`^${bill}, \\d+_\\d{8}_业务明细\\.csv: the bill's header has no column 订单金额（元）$`));
    expect(await stagedRowsOf(renamed.runId)).toBe(0);

    // The second trade's row of a business type Alipay does not document, after the first row was read: nothing is kept.
    const badRow = await reconcileWithArchiveAltered(day, (archive) =>
      withLinesAltered(archive, (name, line) => (name.endsWith('_业务明细.csv') && line.includes(later.orderNo) ? line.replace(',交易\t,', ',冻结\t,') : line)),
    );
    expect(badRow).toMatchObject({ status: 'failed', totals: null, detail: expect.stringMatching(/_业务明细\.csv: line \d+: business type "冻结" is neither 交易 nor 退款$/) });
    expect(await findingsOf(badRow.runId)).toEqual([]);
    expect(await stagedRowsOf(badRow.runId)).toBe(0);

    expect(await reconcileAlipay(day)).toMatchObject({ status: 'complete', totals: { upstreamCount: 2, upstreamTotalMinor: 2500n, findingCount: 0 } });
  });

  it('npm run admin -- reconcile --date reconciles a day and reconcile credit credits its finding once', async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('12.34');
    await payAtAlipay(order, false);
    await happenedOn(day, order.orderNo);
    const run = await runAdmin(['reconcile', '--date', day, '--channel', 'ALIPAY', '--json'], { timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { day: string; runs: { channel: string; status: string; findings: number; upstreamTotal: string }[] };
    expect(report.day).toBe(day);
    expect(report.runs).toEqual([expect.objectContaining({ channel: 'ALIPAY', status: 'complete', findings: 1, upstreamTotal: '12.34' })]);
    const { rows } = await getDb().execute<{ id: string }>(sql`SELECT f.id FROM reconciliation_findings f JOIN reconciliation_runs r ON r.id = f.run_id WHERE r.day = ${day} AND f.reference = ${order.orderNo}`);
    const credit = await runAdmin(['reconcile', 'credit', '--finding', rows[0]!.id], { env: { ...process.env, OPERATOR: 'ops:alice' } });
    expect(credit.exitCode, credit.stderr).toBe(0);
    expect(credit.stdout).toContain(`order ${order.orderNo} credited`);
    const again = await runAdmin(['reconcile', 'credit', '--finding', rows[0]!.id]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('credited already');
    const bad = await runAdmin(['reconcile', '--date', '2024-02-30']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('--date');
  });

  it('the periodic job reconciles yesterday once it is complete, and not again', async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('7.77');
    await payAtAlipay(order, true);
    await happenedOn(day, order.orderNo);
    const clock = new ManualClock(new Date(beijingDayBounds(day)!.end.getTime() + 10 * 3600_000));
    const lines: string[] = [];
    // Other channels' scopes in this shared database (no TRON node here, WeChat's three-month limit) may fail for that
    // day, which fails the job run; the ALIPAY run must not be among the failures.
    const failures: string[] = [];
    // Another test file's run of the job (WeChat's) may hold its lock for a moment: this one waits its turn.
    const runJob = async () => {
      for (let tries = 0; tries < 200; tries += 1) {
        if (await runJobExclusively(reconciliationJob(CHANNELS), { db: getDb(), clock, log: (line) => lines.push(line) }).catch((error: Error) => failures.push(error.message) > 0)) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    };
    expect(await runJob()).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^reconciliation ${day} ALIPAY account:\\S+: 0 finding`)));
    lines.length = 0;
    expect(await runJob()).toBe(true);
    expect(lines.filter((line) => line.includes(' ALIPAY '))).toEqual([]);
    // (Other channels' scopes of this shared database may fail for that day: the job's outcome is theirs too.)
    const { rows } = await getDb().execute<{ status: string; finding_count: number }>(sql`SELECT status, finding_count FROM reconciliation_runs WHERE day = ${day} AND channel = 'ALIPAY'`);
    expect(rows).toEqual([{ status: 'complete', finding_count: 0 }]);
    const { rows: jobRuns } = await getDb().execute<{ run_count: number }>(sql`SELECT run_count FROM job_runs WHERE name = 'reconciliation'`);
    expect(jobRuns[0]!.run_count).toBeGreaterThanOrEqual(2);
    expect(failures.filter((failure) => failure.includes('ALIPAY'))).toEqual([]);
  });
});

describe('reconciling ALIPAY per account (PID), as its bill covers it', () => {
  it('two credentials of two apps on one Alipay account (PID) read its bill once', async () => {
    // Another app of the same account, whose credential is no longer in use: its orders count, the bill is not read twice.
    const { rows } = await getDb().execute<{ id: number }>(sql`
      INSERT INTO upstream_credentials (merchant_id, channel, upstream_app_id, mch_id, seller_id, private_key_encrypted, upstream_public_key, review_status, enabled)
      SELECT merchant_id, channel, '2021000000009999', mch_id, seller_id, private_key_encrypted, upstream_public_key, 'approved', false FROM upstream_credentials WHERE id = ${merchant.credentialId}
      RETURNING id`);
    try {
      const day = aDistinctPastDay();
      const order = await anOrder('31.00');
      await payAtAlipay(order, true);
      await happenedOn(day, order.orderNo);
      const outcomes = await reconcileDay(getDb(), CHANNELS, { day, now: () => new Date(), channels: ['ALIPAY'] });
      expect(outcomes.map(({ status, scope }) => ({ status, scope }))).toEqual([{ status: 'complete', scope: expect.stringMatching(/^account:2088/) }]);
      expect(outcomes[0]!.totals).toMatchObject({ upstreamCount: 1, upstreamTotalMinor: 3100n, findingCount: 0 });
    } finally {
      await getDb().execute(sql`DELETE FROM upstream_credentials WHERE id = ${rows[0]!.id}`);
    }
  });

  it("a trade of another app on the account (and its refund) is one low-severity finding, not_made_here, off the attention list", async () => {
    const day = aDistinctPastDay();
    const noon = new Date(beijingDayBounds(day)!.start.getTime() + 12 * 3600_000);
    const elsewhere = await tradeOfAnotherApp(getDb(), { appId: '2021000000008888', outTradeNo: `SHOP-${Date.now()}`, amountMinor: 4200n, paidAt: noon });
    await refundInConsole(getDb(), { tradeNo: elsewhere.tradeNo, amountMinor: 200n, outRequestNo: `SHOPR-${Date.now()}`, at: new Date(noon.getTime() + 3600_000) });
    const missingHere = await anOrder('20.00');
    await payAtAlipay(missingHere, false);
    await happenedOn(day, missingHere.orderNo);
    const outcome = await reconcileAlipay(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect((await findingsOf(outcome.runId)).map(({ kind, reference }) => ({ kind, reference }))).toEqual([
      { kind: 'missing_here', reference: missingHere.orderNo },
      { kind: 'not_made_here', reference: elsewhere.outTradeNo },
      { kind: 'not_made_here', reference: elsewhere.outTradeNo },
    ]);
    const attention = (await openFindings(getDb(), 1000)).map((item) => item.reference);
    expect(attention).toContain(missingHere.orderNo);
    expect(attention).not.toContain(elsewhere.outTradeNo);
  });

  it("a refund's finished_at is Alipay's gmt_refund_pay, so the bill of the day it was paid back matches it", async () => {
    const day = aDistinctPastDay();
    const order = await anOrder('60.00');
    await payAtAlipay(order, true);
    await happenedOn(day, order.orderNo);
    await planTradeRefund(getDb(), order.orderNo, 'processing');
    const fields = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `RP-${order.orderNo}`, refundAmount: '25.00', reason: 'returned' };
    const { json } = (await bed.app.signedPost('/v1/api/open/refund/submit', fields, merchant.appSecret)) as { json: { code: number; data: { refundNo: string; status: string } } };
    expect(json).toMatchObject({ code: 0, data: { status: 'processing' } });
    // Paid back at Alipay in the evening of that day; the service hears of it later, by its poller.
    const paidBackAt = new Date(beijingDayBounds(day)!.start.getTime() + 21 * 3600_000);
    await settleProcessingRefund(getDb(), json.data.refundNo, paidBackAt);
    const { rows } = await getDb().execute<{ id: string }>(sql`SELECT id FROM refunds WHERE refund_no = ${json.data.refundNo}`);
    expect((await checkRefund(getDb(), alipayRefunds as Extract<typeof alipayRefunds, { offered: true }>, Number(rows[0]!.id), new Date())).state).toBe('succeeded');
    const { rows: settled } = await getDb().execute<{ finished_at: Date }>(sql`SELECT finished_at FROM refunds WHERE refund_no = ${json.data.refundNo}`);
    expect(new Date(settled[0]!.finished_at).toISOString()).toBe(paidBackAt.toISOString());
    const outcome = await reconcileAlipay(day);
    expect(outcome.status, outcome.detail ?? '').toBe('complete');
    expect(outcome.totals).toMatchObject({ upstreamRefundCount: 1, upstreamRefundTotalMinor: 2500n, findingCount: 0 });
  });
});

