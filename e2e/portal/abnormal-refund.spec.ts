import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { admin, PASSWORD, revealAppSecret, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';

/** `npm run sandbox -- wechat …` next to the development server, as a person testing an integration runs it. */
function sandbox(args: string[], origin: string): string {
  return execFileSync(process.execPath, ['dist/cli/sandbox.js', 'wechat', ...args, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: origin },
  });
}

test("a WeChat refund turns abnormal: the order page shows it reserved, the merchant applies WeChat Pay's remedy and it succeeds", async ({ page, request }, testInfo) => {
  test.setTimeout(420_000); // first visits compile each page (and each server action) in development mode
  const appId = await signUp(page, { name: `Abnormal shop ${testInfo.project.name}`, email: uniqueEmail(`abnormal-${testInfo.project.name}`) });
  admin('merchant', 'orders', 'on', '--app-id', appId);
  admin('credential', 'add', '--app-id', appId, '--channel', 'WECHAT', '--sandbox', '--approve', '--enable');
  const secret = await revealAppSecret(page);

  const merchantOrderNo = `E2E-ABNORMAL-${Date.now()}-${testInfo.project.name}`;
  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed({ appId, merchantOrderNo, payType: 'WECHAT', payMethod: 'native', amount: '20.00', productName: 'Abnormal e2e', notifyUrl: 'https://merchant.example/n' }, secret),
  });
  const { data } = await submit.json();
  const origin = new URL(page.url()).origin;
  expect(JSON.parse(sandbox(['pay', '--order', data.platformOrderNo], origin))).toMatchObject({ tradeState: 'SUCCESS' });
  expect(JSON.parse(sandbox(['refund-plan', '--order', data.platformOrderNo, '--plan', 'abnormal'], origin))).toEqual({ order: data.platformOrderNo, plan: 'abnormal' });

  await page.goto(`/portal/orders/${data.platformOrderNo}`);
  await expect(page.getByTestId('order-status')).toHaveText('Paid', { timeout: 60_000 });
  const form = page.getByTestId('refund-form');
  await form.getByLabel('Amount to refund (CNY)').fill('20.00');
  await form.getByLabel('Your password (asked again)').fill(PASSWORD);
  await form.getByLabel('I confirm this refund', { exact: false }).check();
  await form.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Refund submitted: Processing.')).toBeVisible({ timeout: 60_000 });

  // REFUND.ABNORMAL arrives from WeChat Pay: the refund is abnormal, its amount still reserved, the remedy offered.
  const row = page.getByTestId('refund-row').first();
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveAttribute('data-state', 'abnormal', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText('Abnormal');
  await expect(page.getByTestId('refunded-amount')).toHaveText('Refunded: 0.00 CNY');
  // Nothing is left to refund while the abnormal refund holds the whole amount: the form gives way to that sentence.
  await expect(page.getByTestId('refund-remainder')).toHaveText('The whole amount is being refunded: nothing is left to refund while those refunds run.');
  await expect(form).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('abnormal-refund.png'), fullPage: true });

  const remedy = row.getByTestId('abnormal-remedy-form');
  await remedy.getByLabel('Send the refund to').selectOption('MERCHANT_BANK_CARD');
  await remedy.getByLabel('Your password (asked again)').fill(PASSWORD);
  await remedy.getByRole('button', { name: 'Apply the remedy' }).click();
  await expect(page.getByText('Remedy sent to WeChat Pay: Processing.')).toBeVisible({ timeout: 60_000 });
  // The page reads the order and then its refunds: one rendered while the settlement commits can show the refund
  // succeeded beside the amount before it (a read of one snapshot would close that moment). A reload then
  // shows both settled.
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveAttribute('data-state', 'succeeded', { timeout: 2_000 });
    await expect(page.getByTestId('refunded-amount')).toHaveText('Refunded: 20.00 CNY', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});
