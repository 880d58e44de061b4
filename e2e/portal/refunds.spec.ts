import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { admin, PASSWORD, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';

/** Reveals the AppSecret on the keys page (the password asked again), as the merchant would to sign requests. */
async function revealSecret(page: Page): Promise<string> {
  await page.goto('/portal/keys');
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await revealForm.getByLabel('Password').fill(PASSWORD);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  return (await page.getByTestId('app-secret').textContent())!.trim();
}

test('a merchant refunds part of a paid sandbox ALIPAY order in the portal, in English then in Chinese, and sees the states', async ({ page, request }, testInfo) => {
  test.setTimeout(420_000); // first visits compile each page (and each server action) in development mode
  const appId = await signUp(page, { name: `Refund shop ${testInfo.project.name}`, email: uniqueEmail(`refund-${testInfo.project.name}`) });
  admin('merchant', 'orders', 'on', '--app-id', appId);
  admin('credential', 'add', '--app-id', appId, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable');
  const secret = await revealSecret(page);

  const merchantOrderNo = `E2E-REFUND-${Date.now()}-${testInfo.project.name}`;
  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed({ appId, merchantOrderNo, payType: 'ALIPAY', payMethod: 'web', amount: '30.00', productName: 'Refund e2e', notifyUrl: 'https://merchant.example/n' }, secret),
  });
  const { data } = await submit.json();
  const paid = execFileSync(process.execPath, ['dist/cli/sandbox.js', 'alipay', 'pay', '--order', data.platformOrderNo, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: new URL(data.payUrl).origin },
  });
  expect(JSON.parse(paid)).toMatchObject({ status: 'TRADE_SUCCESS', newlyPaid: true });

  // English: the wrong password is refused, then the refund goes through and the table shows it succeeded.
  await page.goto(`/portal/orders/${data.platformOrderNo}`);
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  await expect(page.getByTestId('refunded-amount')).toHaveText('Refunded: 0.00 CNY');
  const form = page.getByTestId('refund-form');
  await form.getByLabel('Amount to refund (CNY)').fill('10.00');
  await form.getByLabel('Reason (optional, at most 80 characters)').fill('Returned goods');
  await form.getByLabel('Your password (asked again)').fill('not the password');
  await form.getByLabel('I confirm this refund', { exact: false }).check();
  await form.getByRole('button', { name: 'Refund' }).click();
  await expect(form.getByRole('alert').first()).toContainText('password', { timeout: 60_000 });
  await form.getByLabel('Your password (asked again)').fill(PASSWORD);
  await form.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Refund submitted: Succeeded.')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('refunded-amount')).toHaveText('Refunded: 10.00 CNY');
  const rows = page.getByTestId('refund-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-state', 'succeeded');
  await expect(rows.first()).toContainText('Returned goods');
  await page.screenshot({ path: testInfo.outputPath('refund-en.png'), fullPage: true });

  // Chinese: a second partial refund; more than what is left is refused first.
  await page.context().addCookies([{ name: 'NEXT_LOCALE', value: 'zh-CN', url: new URL(data.payUrl).origin }]);
  await page.reload();
  await expect(page.getByTestId('refunded-amount')).toHaveText('已退款：¥10.00');
  await form.getByLabel('退款金额（CNY）').fill('25.00');
  await form.getByLabel('您的密码（再次确认）').fill(PASSWORD);
  await form.getByLabel('我确认此笔退款', { exact: false }).check();
  await form.getByRole('button', { name: '退款' }).click();
  await expect(form.getByRole('alert').first()).toBeVisible({ timeout: 60_000 });
  await form.getByLabel('退款金额（CNY）').fill('5.00');
  await form.getByLabel('您的密码（再次确认）').fill(PASSWORD);
  await form.getByRole('button', { name: '退款' }).click();
  await expect(page.getByText('退款已提交：已成功。')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('refunded-amount')).toHaveText('已退款：¥15.00');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('已成功');
  await page.screenshot({ path: testInfo.outputPath('refund-zh.png'), fullPage: true });

  const queried = await request.post('/v1/api/open/order/query', { data: signed({ appId, merchantOrderNo, payType: 'ALIPAY' }, secret) });
  expect((await queried.json()).data).toMatchObject({ status: 2, refundedAmount: '15.00' });
});

