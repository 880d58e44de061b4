import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { checkoutFixture, FIXTURE_RETURN_URL } from './checkout-fixtures';

/**
 * Every checkout state of every channel, the 404 and 410 pages and the sandbox payer pages, in both languages, against
 * committed screenshots (what varies from run to run is masked: QR codes, countdowns, order numbers, addresses, USDT
 * amounts), each scanned by axe-core for serious or critical violations. Each page is visited once per language and
 * project: one test per language walks them all.
 */
interface Screen {
  name: string;
  path: string;
  status?: number;
  mask: string[];
  /** The whole page (default) or the first screen only (pages whose length depends on earlier runs). */
  fullPage?: boolean;
}

const CHECKOUT_MASK = ['[data-testid=pay-qr]', '[data-testid=pay-time-left]', '.checkout-foot .mono'];
const env = { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL };

let screens: Screen[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  // Orders returning to the shop for the pending and expired views; paid ones without (they would leave for it).
  const fixture = checkoutFixture({ baseURL, env, redirectUrl: FIXTURE_RETURN_URL });
  const stay = checkoutFixture({ baseURL, env, channels: ['WECHAT', 'ALIPAY'] });
  const usdt = await fixture.usdt();
  const usdtPaid = await stay.usdt();
  const usdtExpired = await fixture.usdt();
  const yht = await fixture.yht('aliPay');
  const yhtH5 = await fixture.yht('wxH5');
  const yhtPaid = await stay.yht('aliPay');
  const yhtExpired = await fixture.yht('aliPay');
  const wechat = await fixture.wechat('native');
  const wechatH5 = await fixture.wechat('h5');
  const wechatPaid = await stay.wechat('native');
  const wechatExpired = await fixture.wechat('native');
  const alipay = await fixture.alipay('wap');
  const alipayPaid = await stay.alipay('web');
  const alipayExpired = await fixture.alipay('web');
  const gone = await fixture.yht('aliPay');
  fixture.setStates([
    ...[usdtPaid, yhtPaid, wechatPaid, alipayPaid].map((order) => [order, 'paid'] as [typeof order, 'paid']),
    ...[usdtExpired, yhtExpired, wechatExpired, alipayExpired].map((order) => [order, 'expired'] as [typeof order, 'expired']),
    [gone, 'gone'],
  ]);

  const usdtMask = [...CHECKOUT_MASK, '[data-testid=pay-address]', '[data-testid=pay-amount]', '[data-testid=paid-amount]', '[data-testid=ended-amount]', '[data-testid=ended-warning]'];
  const yhtCashier = await cashierPath(browser, yht.path);
  screens = [
    { name: 'usdt-pending', path: usdt.path, mask: usdtMask },
    { name: 'usdt-paid', path: usdtPaid.path, mask: usdtMask },
    { name: 'usdt-expired', path: usdtExpired.path, mask: usdtMask },
    { name: 'yht-pending-scan', path: yht.path, mask: CHECKOUT_MASK },
    { name: 'yht-pending-h5', path: yhtH5.path, mask: CHECKOUT_MASK },
    { name: 'yht-paid', path: yhtPaid.path, mask: CHECKOUT_MASK },
    { name: 'yht-expired', path: yhtExpired.path, mask: CHECKOUT_MASK },
    { name: 'wechat-pending-native', path: wechat.path, mask: CHECKOUT_MASK },
    { name: 'wechat-paid', path: wechatPaid.path, mask: CHECKOUT_MASK },
    { name: 'wechat-expired', path: wechatExpired.path, mask: CHECKOUT_MASK },
    // Back from Alipay (trade_no): the page waits instead of sending the payer on, so it can be looked at.
    { name: 'alipay-pending-returned', path: `${alipay.path}?trade_no=fixture`, mask: CHECKOUT_MASK },
    { name: 'alipay-paid', path: alipayPaid.path, mask: CHECKOUT_MASK },
    { name: 'alipay-expired', path: alipayExpired.path, mask: CHECKOUT_MASK },
    { name: 'not-found', path: '/pay/no-such-token-0123456789abcdef', status: 404, mask: [] },
    { name: 'gone', path: gone.path, status: 410, mask: [] },
    { name: 'sandbox-tron-wallet', path: `/sandbox/tron?to=TFixtureAddress&amount=123.45&back=${encodeURIComponent(usdt.path)}`, mask: ['.mono'] },
    { name: 'sandbox-yht-cashier', path: yhtCashier, mask: ['.mono'] },
    { name: 'sandbox-wechat-payer', path: wechatH5.path, mask: ['.mono'] },
  ];
});

/** The sandbox YHT cashier an order's checkout continues to. */
async function cashierPath(browser: Browser, checkoutPath: string): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(`${baseURL}${checkoutPath}?lang=en`);
    return new URL((await page.getByTestId('pay-cashier').getAttribute('href'))!, baseURL).pathname;
  } finally {
    await page.close();
  }
}

async function check(page: Page, screen: Screen, locale: string) {
  const response = await page.goto(screen.path);
  expect.soft(response?.status(), `${screen.name} status`).toBe(screen.status ?? 200);
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('main')).toHaveAttribute('lang', locale);
  const scan = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = scan.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect.soft(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), `${screen.name} axe`).toEqual([]);
  await expect.soft(page).toHaveScreenshot(`${screen.name}-${locale}.png`, {
    fullPage: screen.fullPage ?? true,
    mask: screen.mask.map((selector) => page.locator(selector)),
    animations: 'disabled',
    stylePath: [path.join(import.meta.dirname, 'screenshot.css'), path.join(import.meta.dirname, 'staging-banner.css')],
    maxDiffPixelRatio: 0.01,
  });
}

for (const locale of ['en', 'zh-CN']) {
  test.describe(`checkout and sandbox pages in ${locale}`, () => {
    test.use({ locale });
    test(`every state of every channel, 404, 410 and the sandbox payer pages (${locale})`, async ({ page }) => {
      test.setTimeout(240_000);
      for (const screen of screens) await test.step(screen.name, () => check(page, screen, locale));
    });
  });
}
