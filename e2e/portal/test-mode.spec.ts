import { expect, test } from '@playwright/test';
import { admin, signUp, uniqueEmail, withDatabase } from '../factories';

/**
 * Test mode from the portal alone, in Chinese (the language a reviewer found English in): a new merchant takes the
 * simulator's WECHAT credential with one button, picks a method named in words, and its test order is created; every
 * USDT network this service reads is offered.
 */
test('test mode: a sandbox credential from a button, methods in words, every USDT network, a test order in Chinese', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL, locale: 'zh-CN' });
  await context.addCookies([{ name: 'NEXT_LOCALE', value: 'en', url: testInfo.project.use.baseURL! }]);
  const page = await context.newPage();
  try {
    const appId = await signUp(page, { name: `Test mode ${testInfo.project.name}`, email: uniqueEmail('test-mode') });
    admin('merchant', 'orders', 'on', '--app-id', appId);
    await context.addCookies([{ name: 'NEXT_LOCALE', value: 'zh-CN', url: testInfo.project.use.baseURL! }]);
    await page.goto('/portal/test');
    await expect(page.locator('h1')).toHaveText('测试模式');

    const form = page.getByRole('form', { name: '测试订单' });
    await form.getByLabel('渠道').selectOption('USDT');
    const networks = await form.getByLabel('支付方式').locator('option').allTextContents();
    expect(networks).toEqual(expect.arrayContaining(['TRC20（波场）', 'ERC20（以太坊）', 'BEP20（币安智能链）']));

    // Without a credential, a WECHAT order is refused, in Chinese.
    await form.getByLabel('渠道').selectOption('WECHAT');
    const methods = await form.getByLabel('支付方式').locator('option').allTextContents();
    expect(methods).toEqual(['微信扫码（Native）', '微信手机网页（H5）']);
    await form.getByLabel('通知地址').fill('https://shop.example/notify');
    await form.getByRole('button', { name: '创建测试订单' }).click();
    const refusal = form.getByRole('alert').first();
    await expect(refusal).toBeVisible();
    expect(await refusal.textContent()).not.toMatch(/[A-Za-z]{4,}/);

    await page.getByTestId('sandbox-credential-wechat').click();
    await expect(page.getByTestId('sandbox-credential-added')).toContainText('微信支付沙箱凭证已添加');
    await form.getByRole('button', { name: '创建测试订单' }).click();
    await expect(page.getByTestId('test-order-created')).toBeVisible();
    const { rows } = await withDatabase((client) =>
      client.query(`SELECT c.channel, c.review_status, c.enabled FROM upstream_credentials c JOIN merchants m ON m.id = c.merchant_id WHERE m.app_id = $1`, [appId]),
    );
    expect(rows).toEqual([{ channel: 'WECHAT', review_status: 'approved', enabled: true }]);
  } finally {
    await context.close();
  }
});
