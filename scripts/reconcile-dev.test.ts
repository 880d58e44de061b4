import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { runAdmin } from '../lib/cli/run-admin-for-tests';
import { getDb } from '../lib/db/client';
import { beijingDayBounds, beijingDayOf } from '../lib/reconciliation/beijing-day';
import { paySandboxWechatOrder } from '../sandbox/wechat/pay';
import { signed } from '../test/beds/contract-signer';
import { aMerchant } from '../test/factories';
import { startRealServer, type RealServer } from '../test/real-server';

/**
 * `npm run admin -- reconcile` next to `npm run dev`, as an operator runs it in development: the service on a port of
 * its own reached through 127.0.0.1 (its PUBLIC_BASE_URL), the CLI with a terminal's environment (no PORT, no
 * PUBLIC_BASE_URL), both on one database. The WeChat Pay bill comes from the service's sandbox.
 */
let server: RealServer;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

/** The CLI's environment: the shared database in development, nothing that says where the service listens. */
function terminalEnv(): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'development', OPERATOR: 'ops:dev' };
  for (const name of ['PORT', 'PUBLIC_BASE_URL', 'WECHAT_API_BASE_URL', 'ALIPAY_GATEWAY_URL', 'TRONGRID_BASE_URLS', 'TRONGRID_BASE_URL']) delete env[name];
  return env as NodeJS.ProcessEnv;
}

const admin = (args: string[]) => runAdmin(args, { env: terminalEnv(), timeoutMs: 120_000 });

/** A WeChat Pay order submitted to the running service, paid at WeChat Pay, whose notification was lost, on `day`. */
async function aLostWechatPayment(day: string, amount: string) {
  const merchantOrderNo = `DEV-REC-${Date.now()}`;
  const fields = { appId: merchant.appId, merchantOrderNo, payType: 'WECHAT', payMethod: 'native', amount, productName: '季度会员', notifyUrl: 'https://merchant.example/notify' };
  const response = await fetch(`${server.baseUrl}/v1/api/open/order/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed(fields, merchant.appSecret)) });
  const answer = (await response.json()) as { code: number; message: string; data: { platformOrderNo: string } };
  expect(answer.code, answer.message).toBe(0);
  const orderNo = answer.data.platformOrderNo;
  const { order } = await paySandboxWechatOrder(getDb(), { outTradeNo: orderNo }, { notify: false });
  const noon = new Date(beijingDayBounds(day)!.start.getTime() + 12 * 3600_000);
  await getDb().execute(sql`UPDATE sandbox_wechat_orders SET success_time = ${noon} WHERE out_trade_no = ${orderNo}`);
  return { orderNo, merchantOrderNo, transactionId: order.transactionId };
}

type Report = { runs: { channel: string; status: string; findings: number; detail: string | null }[]; findings: Record<string, unknown>[] };

beforeAll(async () => {
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  server = await startRealServer('development');
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

describe('npm run admin -- reconcile next to npm run dev reached through 127.0.0.1', { timeout: 300_000 }, () => {
  const day = beijingDayOf(new Date(Date.now() - 5 * 86_400_000)); // within WeChat Pay's three months
  let payment: Awaited<ReturnType<typeof aLostWechatPayment>>;
  let findingId: number;

  it("reads the running service's sandbox WeChat Pay bill, and lists each finding with its id, numbers and amounts", async () => {
    payment = await aLostWechatPayment(day, '36.50');
    const text = await admin(['reconcile', '--date', day, '--channel', 'WECHAT']);
    expect(text.exitCode, `${text.stdout}${text.stderr}\nservice:\n${server.output().slice(-2000)}`).toBe(0);
    expect(text.stdout).toMatch(/^ {2}finding \d+: missing_here WECHAT order /m);
    // Run again, the day's findings are replaced (new ids) by the run that completed.
    const run = await admin(['reconcile', '--date', day, '--channel', 'WECHAT', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.runs).toEqual([expect.objectContaining({ channel: 'WECHAT', status: 'complete', findings: 1 })]);
    expect(report.findings).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        kind: 'missing_here',
        channel: 'WECHAT',
        orderNo: payment.orderNo,
        merchantOrderNo: payment.merchantOrderNo,
        upstreamReference: payment.transactionId,
        upstreamAmount: '36.50',
        oursAmount: '36.50',
        creditable: true,
      }),
    ]);
    findingId = report.findings[0]!.id as number;
    const listed = await admin(['reconcile', 'findings', '--date', day]);
    expect(listed.stdout).toContain(`finding ${findingId}: missing_here WECHAT order ${payment.orderNo} (${payment.merchantOrderNo}), upstream ${payment.transactionId}; upstream 36.50, here 36.50; credit: npm run admin -- reconcile credit --finding ${findingId}`);
  });

  it('reconcile findings --open lists the open ones; reconcile credit credits one by that id', async () => {
    const open = await admin(['reconcile', 'findings', '--date', day, '--open', '--json']);
    expect(open.exitCode, open.stderr).toBe(0);
    expect((JSON.parse(open.stdout) as Report).findings.map((finding) => finding.id)).toEqual([findingId]);
    const credit = await admin(['reconcile', 'credit', '--finding', String(findingId)]);
    expect(credit.exitCode, credit.stderr).toBe(0);
    expect(credit.stdout).toContain(`order ${payment.orderNo} credited`);
    expect(JSON.parse((await admin(['reconcile', 'findings', '--date', day, '--open', '--json'])).stdout)).toEqual({ day, findings: [] });
    const all = JSON.parse((await admin(['reconcile', 'findings', '--date', day, '--json'])).stdout) as Report;
    expect(all.findings).toEqual([expect.objectContaining({ id: findingId, resolvedBy: 'ops:dev', creditable: false })]);
  });

  it("a re-run that cannot reach the upstream fails in one explained message (no stack trace) and leaves the day's complete run and findings", async () => {
    const another = await aLostWechatPayment(day, '12.00');
    const before = JSON.parse((await admin(['reconcile', 'findings', '--date', day, '--json'])).stdout) as Report;
    await server.stop(); // the address the service recorded answers no more
    const run = await admin(['reconcile', '--date', day, '--channel', 'WECHAT']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^error: reconciliation of \S+ failed for WECHAT account:\S+:\n/);
    expect(run.stderr).toContain('(the completed run and its findings stay as they were)');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const { rows } = await getDb().execute<{ status: string; finding_count: number }>(sql`SELECT status, finding_count FROM reconciliation_runs WHERE day = ${day} AND channel = 'WECHAT'`);
    expect(rows).toEqual([{ status: 'complete', finding_count: 1 }]);
    expect(JSON.parse((await admin(['reconcile', 'findings', '--date', day, '--json'])).stdout)).toEqual(before);
    expect(another.orderNo).not.toBe(payment.orderNo);
  });

  it('with no service address recorded and no PUBLIC_BASE_URL, refuses naming the setting', async () => {
    await getDb().execute(sql`DELETE FROM platform_settings WHERE key = 'service_base_url'`);
    const run = await admin(['reconcile', '--date', day, '--channel', 'WECHAT']);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/^error: PUBLIC_BASE_URL: no service has started on this database/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
