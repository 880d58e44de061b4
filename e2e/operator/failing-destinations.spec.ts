import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { closedPort } from '../../test/unconnectable-host';
import { admin, signUp, uniqueEmail, anOperator, anotherBrowser, signInAsOperator, withDatabase, merchantIdOf } from '../factories';

test.describe.configure({ timeout: 240_000 }); // first visits compile pages in development mode

test('a merchant endpoint that refuses connections shows as failing, with its circuit, on the health page and in the portal', async ({ page, browser }, testInfo) => {
  const appId = await signUp(page, { name: `Refusing ${testInfo.project.name}`, email: uniqueEmail(`refusing-${testInfo.project.name}`) });
  const port = await closedPort(); // every notification to it is refused at once
  const destination = `127.0.0.1:${port}`;

  // Five orders paid the way an operator completes them; each notification is refused: five failures in a row (more
  // when the CLI is slow enough for the first retries, 15 s later, to come before the fifth).
  const orders = await withDatabase(async (client) => {
    const merchantId = await merchantIdOf(client, appId);
    const { rows } = await client.query<{ order_no: string; merchant_order_no: string }>(
      `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor,
                           chain_type, notify_url, pay_token, expires_at)
       SELECT 'F' || $2 || g, $1, 'F-' || $2 || '-' || g, 'USDT', 'USDT', 1000 + g, 1000 + g, '1', $3, md5(random()::text) || g, now() + interval '30 minutes'
       FROM generate_series(1, 5) AS g RETURNING order_no, merchant_order_no`,
      [merchantId, randomBytes(4).toString('hex'), `http://${destination}/notify`],
    );
    return rows;
  });
  for (const order of orders) admin('order', 'complete', '--app-id', appId, '--merchant-order-no', order.merchant_order_no, '--reason', 'failing destinations e2e');

  const operatorContext = await anotherBrowser(browser, testInfo);
  const ops = await operatorContext.newPage();
  try {
    await signInAsOperator(ops, anOperator(`destinations-${testInfo.project.name}`));
    const row = ops.getByTestId(`destination-${destination}`);
    await expect(async () => {
      await ops.goto('/operator/health');
      await expect(row.getByTestId('destination-circuit')).toContainText('open', { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    expect(Number(await row.getByTestId('destination-failures').textContent())).toBeGreaterThanOrEqual(5);
    await expect(row.getByTestId('destination-since')).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    await expect(row.getByTestId('destination-since').locator('time')).toHaveAttribute('title', / UTC$/);
    await expect(row).toContainText('connection failed: ECONNREFUSED');
    await expect(row).toContainText(appId);
    await ops.screenshot({ path: testInfo.outputPath('health-failing-destinations.png'), fullPage: true });
    // Failing now counts on the health page and the console's overview, long before the retry plan runs out.
    expect(Number(await ops.getByTestId('queue-failing-now').textContent())).toBeGreaterThanOrEqual(1);
    await ops.goto('/operator');
    await expect(ops.getByTestId('tile-failing-now')).toContainText(/[1-9]\d* destinations?/);
  } finally {
    await operatorContext.close();
  }

  // The merchant sees it on the overview and on the order, before any retry plan has run out.
  await page.goto('/portal');
  // The portal's navigation carries a badge on every page while deliveries fail.
  await expect(page.getByRole('link', { name: /Overview\s*failing/ })).toBeVisible();
  const notice = page.getByTestId(`failing-${destination}`);
  await expect(notice).toContainText(/\d+ attempts in a row unanswered since \d{4}-\d\d-\d\d/);
  await expect(notice).toContainText('paused until');
  await page.goto(`/portal/orders/${orders[0]!.order_no}`);
  await expect(page.getByTestId(`failing-${destination}`)).toContainText('connection refused');
  // Its failed attempts stand out in the timeline: a red dot, not the success colour.
  const failedAttempt = page.locator('li[data-kind="notification-attempt"][data-failed="true"]').first();
  await expect(failedAttempt).toBeVisible();
  await expect(failedAttempt.getByTestId('timeline-dot')).toHaveClass(/bg-red-700/);
  await page.screenshot({ path: testInfo.outputPath('portal-failing-destination.png'), fullPage: true });
});
