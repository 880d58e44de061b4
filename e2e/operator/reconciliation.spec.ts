import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { admin, anOperator, signInAsOperator, withDatabase } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { aDistinctPastDay } from '../../test/past-days';

test.describe.configure({ timeout: 240_000 }); // first visits compile pages in development mode

/** `npm run admin -- reconcile` next to the running service, whose sandbox Alipay it asks. */
function reconcile(day: string, baseUrl: string) {
  const output = execFileSync(process.execPath, ['dist/cli/admin.js', 'reconcile', '--date', day, '--channel', 'ALIPAY', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseUrl },
  });
  return JSON.parse(output) as { runs: { status: string; findings: number }[] };
}

test('reconciliation: the operator reviews a day whose payment never reached the service and credits it; a clean day says so', async ({ page, request, baseURL }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E reconciliation ${testInfo.project.name}`, '--orders', 'on');
  admin('credential', 'add', '--app-id', merchant.appId, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable');
  const merchantOrderNo = `E2E-REC-${Date.now()}`;
  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed(
      { appId: merchant.appId, merchantOrderNo, payType: 'ALIPAY', payMethod: 'web', amount: '23.45', productName: '年度会员', notifyUrl: 'https://merchant.example/n', redirectUrl: 'https://merchant.example/r' },
      merchant.appSecret,
    ),
  });
  const { data } = await submit.json();
  // The payer pays at Alipay; Alipay's notification is lost.
  execFileSync(process.execPath, ['dist/cli/sandbox.js', 'alipay', 'pay', '--order', data.platformOrderNo, '--no-notify', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL },
  });
  // …the poller never reached Alipay and closed the order at the end of its window, and the day has passed: the
  // payment is in that day's bill.
  const day = aDistinctPastDay();
  await withDatabase(async (client) => {
    const closed = await client.query(`UPDATE orders SET status = 'closed', closed_at = now() WHERE order_no = $1 AND status = 'pending'`, [data.platformOrderNo]);
    expect(closed.rowCount).toBe(1);
    await client.query(`UPDATE sandbox_alipay_trades SET paid_at = $2::date + interval '4 hours', created_at = $2::date + interval '4 hours' WHERE out_trade_no = $1`, [data.platformOrderNo, day]);
  });
  expect(reconcile(day, baseURL!).runs).toEqual([expect.objectContaining({ status: 'complete', findings: 1 })]);

  const operator = anOperator(`reconciliation-${testInfo.project.name}`);
  await signInAsOperator(page, operator);
  await page.goto('/operator/attention');
  const listed = page.getByRole('table', { name: 'Differences found by the daily reconciliation' }).getByRole('row').filter({ hasText: data.platformOrderNo });
  await expect(listed).toContainText('Paid upstream, not here');
  await listed.getByRole('link', { name: `Review ${day}` }).click();
  await page.waitForURL(`**/operator/reconciliation?day=${day}*`);
  await expect(page.getByRole('heading', { name: `Reconciliation of ${day}` })).toBeVisible();
  await expect(page.getByTestId('run-ALIPAY')).toContainText('Upstream: 1 paid, 23.45');
  await expect(page.getByTestId('run-ALIPAY')).toContainText('Here: 0 paid, 0.00');
  await expect(page.getByTestId(`finding-${data.platformOrderNo}`)).toContainText('success / closed');
  const finding = page.getByTestId(`finding-${data.platformOrderNo}`);
  await expect(finding).toContainText('Paid upstream, not here');
  await expect(finding).toContainText(merchantOrderNo);
  await page.screenshot({ path: testInfo.outputPath('reconciliation-findings.png'), fullPage: true });
  await finding.getByRole('button', { name: `Credit order ${data.platformOrderNo}` }).click();
  await expect(finding).toContainText(`Credited by ${operator.email}`);
  await expect(finding.getByRole('button')).toHaveCount(0);

  const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo, payType: 'ALIPAY' }, merchant.appSecret) });
  expect((await query.json()).data.status).toBe(2);
  await page.goto(`/operator/audit?action=order.complete&actor=${encodeURIComponent(operator.email)}`);
  await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: data.platformOrderNo })).toContainText('reconciliation');

  // Reconciled again, the day is clean, and says so.
  expect(reconcile(day, baseURL!).runs).toEqual([expect.objectContaining({ status: 'complete', findings: 0 })]);
  await page.goto(`/operator/reconciliation?day=${day}`);
  await expect(page.getByTestId('clean-ALIPAY')).toHaveText('No differences: both sides agree.');
});

test('reconciliation: a trade of another app on the same Alipay account is shown as not made here, and is no alarm on the attention list', async ({ page, baseURL }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E not made here ${testInfo.project.name}`, '--orders', 'on');
  admin('credential', 'add', '--app-id', merchant.appId, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable');
  const day = aDistinctPastDay();
  const shopOrderNo = `SHOP-${testInfo.project.name}-${Date.now()}`;
  // Paid at a shop's own terminal, another app on the same Alipay account (PID): the account's bill lists it.
  await withDatabase(async (client) => {
    await client.query(
      `INSERT INTO sandbox_alipay_trades (trade_no, app_id, out_trade_no, method, amount_minor, subject, time_expire, status, buyer_logon_id, paid_at, created_at)
       VALUES ($1, '2021000000007777', $2, 'alipay.trade.precreate', 1500, '门店收款', now(), 'TRADE_SUCCESS', 'shop***@example.com', $3::date + interval '3 hours', $3::date + interval '3 hours')`,
      [`2020${Date.now()}`, shopOrderNo, day],
    );
  });
  expect(reconcile(day, baseURL!).runs).toEqual([expect.objectContaining({ status: 'complete', findings: 1 })]);

  await signInAsOperator(page, anOperator(`not-made-here-${testInfo.project.name}`));
  await page.goto(`/operator/reconciliation?day=${day}`);
  const finding = page.getByTestId(`finding-${shopOrderNo}`);
  await expect(finding).toContainText('Not made here (another app or shop on the same upstream account)');
  await expect(finding).toContainText('15.00');
  await expect(finding.getByRole('button')).toHaveCount(0);
  await page.goto('/operator/attention');
  await expect(page.getByText(shopOrderNo)).toHaveCount(0);
});
