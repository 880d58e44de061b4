import { expect, test, type Page } from '@playwright/test';
import { aPendingUsdtOrderOf, signUp, uniqueEmail, withDatabase } from '../factories';

const WORDS = {
  en: { close: 'Close order', confirm: 'Yes, close it', closed: 'Closed by the merchant', event: 'Closed by the merchant', optIn: /Send close and expiry notices/, save: 'Save', saved: 'Close and expiry notices are on.' },
  'zh-CN': { close: '关闭订单', confirm: '确认关闭', closed: '商户已关闭', event: '商户已关闭', optIn: /发送关闭与过期通知/, save: '保存', saved: '关闭与过期通知已开启。' },
} as const;

async function readIn(page: Page, locale: string): Promise<void> {
  const { hostname } = new URL(test.info().project.use.baseURL!);
  await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: hostname, path: '/' }]);
}

for (const locale of ['en', 'zh-CN'] as const) {
  test(`a merchant closes a pending USDT order in the portal and sees it closed (${locale})`, async ({ page }, testInfo) => {
    test.setTimeout(180_000); // first visits compile each page in development mode
    const words = WORDS[locale];
    const appId = await signUp(page, { name: `Close shop ${locale} ${testInfo.project.name}`, email: uniqueEmail(`close-${locale}-${testInfo.project.name}`) });
    await readIn(page, locale);
    const order = await aPendingUsdtOrderOf(appId);

    await page.goto(`/portal/orders/${order.orderNo}`);
    await expect(page.getByTestId('order-status')).not.toHaveText(words.closed);
    await page.getByRole('button', { name: words.close }).click();
    // Nothing happens before the confirmation.
    await expect(page.getByRole('button', { name: words.confirm })).toBeVisible();
    await page.getByRole('button', { name: words.confirm }).click();
    await expect(page.getByTestId('order-status')).toHaveText(words.closed);
    await expect(page.getByTestId('order-timeline').locator('li[data-kind="closed"]')).toContainText(words.event);
    await expect(page.getByTestId('order-close')).toHaveCount(0);
    const audit = await withDatabase((client) => client.query<{ actor: string }>(`SELECT actor FROM audit_log WHERE action = 'order.close' AND subject = $1`, [`order:${order.orderNo}`]));
    expect(audit.rows.map(({ actor }) => actor)).toEqual([expect.stringMatching(/^account:close-/)]);

    // The opt-in to close and expiry notices is off until the merchant turns it on.
    await page.goto('/portal/account');
    const optIn = page.getByRole('checkbox', { name: words.optIn });
    await expect(optIn).not.toBeChecked();
    await optIn.check();
    await page.locator('form').filter({ has: optIn }).getByRole('button', { name: words.save }).click();
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: words.optIn })).toBeChecked();
  });
}

test("the payer's cancel on the checkout closes the order after a confirmation, then returns to the shop", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const appId = await signUp(page, { name: `Cancel shop ${testInfo.project.name}`, email: uniqueEmail(`cancel-${testInfo.project.name}`) });
  const order = await aPendingUsdtOrderOf(appId);
  const shop = `${test.info().project.use.baseURL}/?back-from-checkout=1`;
  const token = await withDatabase(async (client) => {
    const { rows } = await client.query<{ pay_token: string }>('UPDATE orders SET redirect_url = $2 WHERE id = $1 RETURNING pay_token', [order.id, shop]);
    return rows[0]!.pay_token;
  });
  await page.goto(`/pay/${token}?lang=zh`);
  await page.getByText('取消订单并返回').click();
  await expect(page.getByText('订单将被关闭，无法再支付。')).toBeVisible();
  await page.getByTestId('cancel-order-confirm').click();
  await page.waitForURL(shop);
  const { rows } = await withDatabase((client) => client.query<{ status: string; close_reason: string }>('SELECT status, close_reason FROM orders WHERE id = $1', [order.id]));
  // Stored as the payer's cancel, so every page says who ended it.
  expect(rows).toEqual([{ status: 'closed', close_reason: 'cancelled' }]);
  // Back to the checkout: the order is no longer payable.
  await page.goto(`/pay/${token}?lang=zh`);
  await expect(page.getByTestId('cancel-order')).toHaveCount(0);
});
