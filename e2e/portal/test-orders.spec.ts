import { expect, test, type Page } from '@playwright/test';
import { admin, anOperator, anotherBrowser, merchantIdOf, randomTronAddress, seedOrder, signInAsOperator, signUp, uniqueEmail, withDatabase } from '../factories';

/**
 * Test orders as the merchant meets them: one made with the portal's test-order form carries a "Test" badge, is left
 * out of the order list until the merchant asks for it (a link and a filter), and never counts in the overview's
 * figures; the operator's merchant page marks it too.
 */
const WORDS = {
  en: { badge: 'Test', hidden: 'Test orders are hidden.', show: 'Show them', filter: 'Test orders', only: 'Only test orders', apply: 'Filter', liveOnly: 'Test orders are not counted.', channel: 'Channel', notifyUrl: 'Notify URL', create: 'Create test order' },
  'zh-CN': { badge: '测试', hidden: '测试订单已隐藏。', show: '显示测试订单', filter: '测试订单', only: '仅显示测试订单', apply: '筛选', liveOnly: '统计不含测试订单。', channel: '渠道', notifyUrl: '通知地址', create: '创建测试订单' },
} as const;

async function readIn(page: Page, locale: string): Promise<void> {
  const { hostname } = new URL(test.info().project.use.baseURL!);
  await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: hostname, path: '/' }]);
}

const row = (page: Page, orderNo: string) => page.locator(`[data-order-state][data-order-no="${orderNo}"]`);
const testBadge = (page: Page, orderNo: string) => page.locator(`[data-testid="test-order-badge"][data-order-no="${orderNo}"]`);

for (const locale of ['en', 'zh-CN'] as const) {
  test(`a test order is marked, hidden from the live list until asked for, and not counted in the figures (${locale})`, async ({ page, browser }, testInfo) => {
    test.setTimeout(240_000); // first visits compile each page in development mode
    const words = WORDS[locale];
    const appId = await signUp(page, { name: `Test orders ${locale} ${testInfo.project.name}`, email: uniqueEmail(`test-orders-${locale}-${testInfo.project.name}`) });
    admin('merchant', 'orders', 'on', '--app-id', appId);
    const address = randomTronAddress();
    admin('address', 'add', '--chain', 'TRC20', address);
    // A live order, paid today, as the merchant's server would have made it.
    const live = await withDatabase(async (client) => {
      const { rows } = await client.query<{ id: string }>('SELECT id FROM receiving_addresses WHERE address = $1', [address]);
      return seedOrder(client, { merchantId: await merchantIdOf(client, appId), addressId: Number(rows[0]!.id), amountMinor: 4321, status: 'paid' });
    });
    await readIn(page, locale);

    // A test order from the portal's form; closed, it would halve the success rate if it were counted.
    await page.goto('/portal/test');
    await page.getByLabel(words.channel, { exact: true }).selectOption('USDT');
    await page.getByLabel(words.notifyUrl, { exact: true }).fill('https://shop.example/notify');
    await page.getByRole('button', { name: words.create }).click();
    await expect(page.getByTestId('test-order-created')).toBeVisible();
    const testOrderNo = decodeURIComponent((await page.getByTestId('test-order-detail').getAttribute('href'))!.split('/').pop()!);
    await withDatabase((client) => client.query(`UPDATE orders SET status = 'closed', close_reason = 'closed', closed_at = now(), holds_slot = false WHERE order_no = $1`, [testOrderNo]));

    // The list: live orders only, saying so, with the way to show the test ones.
    await page.goto('/portal/orders');
    await expect(row(page, live.orderNo)).toBeVisible();
    await expect(row(page, testOrderNo)).toHaveCount(0);
    await expect(page.getByTestId('orders-total')).toContainText(words.hidden);
    await page.getByTestId('show-test-orders').click();
    await expect(page).toHaveURL(/[?&]test=include/);
    await expect(row(page, testOrderNo)).toBeVisible();
    await expect(row(page, live.orderNo)).toBeVisible();
    await expect(testBadge(page, testOrderNo)).toHaveText(words.badge);
    await expect(testBadge(page, live.orderNo)).toHaveCount(0);
    await expect(page.getByTestId('show-test-orders')).toHaveCount(0);

    // The filter: test orders alone.
    await page.getByLabel(words.filter, { exact: true }).selectOption('only');
    await page.getByRole('search').getByRole('button', { name: words.apply }).click();
    await expect(page).toHaveURL(/[?&]test=only/);
    await expect(row(page, testOrderNo)).toBeVisible();
    await expect(row(page, live.orderNo)).toHaveCount(0);
    // (polled: in development mode the page's styles may land a moment after its content)
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

    // Its own page says it is a test order.
    await page.goto(`/portal/orders/${encodeURIComponent(testOrderNo)}`);
    await expect(testBadge(page, testOrderNo)).toHaveText(words.badge);

    // The overview counts the live order alone: 1 today, 1 paid, 100 % (with the closed test order: 2, 50 %).
    await page.goto('/portal');
    await expect(page.getByTestId('dashboard-live-only')).toHaveText(words.liveOnly);
    const stats = page.getByTestId('dashboard-stats').locator('p');
    await expect(stats).toHaveText(['1', '1', '100%']);

    // The operator's page of the merchant marks it too.
    const operatorContext = await anotherBrowser(browser, testInfo);
    try {
      const operatorPage = await operatorContext.newPage();
      await signInAsOperator(operatorPage, anOperator(`test-orders-${locale.toLowerCase()}-${testInfo.project.name}`));
      await readIn(operatorPage, locale);
      await operatorPage.goto(`/operator/merchants/${appId}`);
      await expect(testBadge(operatorPage, testOrderNo)).toHaveText(words.badge);
      await expect(testBadge(operatorPage, live.orderNo)).toHaveCount(0);
    } finally {
      await operatorContext.close();
    }
  });
}
