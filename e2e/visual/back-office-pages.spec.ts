import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { admin, anOperator, randomTronAddress, signInAsOperator, signUp, uniqueEmail } from '../factories';

/**
 * Every portal and console page, once per language and screen (desktop, Pixel 7): an axe-core scan with no serious or
 * critical violation, and a screenshot compared with the committed baseline so a broken layout fails. What differs
 * between runs (times, ids, emails, tokens, QR codes, figures and lists the shared database fills) is masked, and
 * pages whose lists depend on other tests are compared above their lists only.
 */
const LOCALES = ['en', 'zh-CN'] as const;

/** What varies from run to run on every page. */
const VARYING = [
  '[data-testid="local-time"]',
  'time',
  '.font-mono',
  '[data-testid="signed-in-email"]',
  '[data-testid="operator-email"]',
  '[data-testid="app-id"]',
  '[data-testid="order-no"]',
  '[data-testid="order-pay-url"]',
  '[data-testid="notification-body"]',
  '[data-testid="orders-chart"]',
  '[data-testid="dashboard-stats"]',
  '[data-testid="overview"] li span.text-3xl',
  'pre',
  '[data-testid="merchant-accounts"]',
  'input[name="q"]',
  'input[name="actor"]',
];

type Check = { path: string; name: string; aboveLists?: boolean };

async function rememberLocale(page: Page, locale: string): Promise<void> {
  const { hostname } = new URL(page.url() === 'about:blank' ? test.info().project.use.baseURL! : page.url());
  await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: hostname, path: '/' }]);
}

async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

async function checkPage(page: Page, check: Check, locale: string): Promise<void> {
  await page.goto(check.path);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expect(page.locator('h1').first()).toBeVisible();
  expect(await axeProblems(page), `${check.path} (${locale})`).toEqual([]);
  const mask: Locator[] = VARYING.map((selector) => page.locator(selector));
  const viewport = page.viewportSize()!;
  // Lists another test fills (every merchant's addresses, the attention queue, the health figures): compared down to the page's introduction.
  const clip = check.aboveLists ? { x: 0, y: 0, width: viewport.width, height: Math.min(viewport.height, await introBottom(page)) } : undefined;
  await expect(page).toHaveScreenshot(`${check.name}-${locale}.png`, { mask, clip, maxDiffPixelRatio: 0.01, stylePath: path.join(import.meta.dirname, 'staging-banner.css') });
}

async function introBottom(page: Page): Promise<number> {
  const box = await page.locator('main header, main h1').first().boundingBox();
  return Math.ceil((box?.y ?? 0) + (box?.height ?? 200) + 8);
}

async function signedOutPages(browser: Browser, testInfo: TestInfo, locale: string): Promise<void> {
  const context = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
  const page = await context.newPage();
  try {
    await rememberLocale(page, locale);
    await checkPage(page, { path: '/portal/sign-in', name: 'portal-sign-in' }, locale);
    await checkPage(page, { path: '/portal/sign-up', name: 'portal-sign-up' }, locale);
  } finally {
    await context.close();
  }
}

for (const locale of LOCALES) {
  test(`every back-office page in ${locale}: no serious accessibility violation, layout as the baseline`, async ({ page, browser }, testInfo) => {
    test.setTimeout(420_000); // first visits compile each page in development mode
    await signedOutPages(browser, testInfo, locale);

    // A fresh merchant with one test order, made in the portal's test mode.
    const appId = await signUp(page, { name: 'Visual Shop', email: uniqueEmail(`visual-${testInfo.project.name}-${locale}`) });
    admin('merchant', 'orders', 'on', '--app-id', appId);
    admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
    await rememberLocale(page, locale);
    await page.goto('/portal/test');
    await page.locator('#test-notifyUrl').fill('https://merchant.example/notify');
    await page.locator('form[aria-label] button[type="submit"]').click();
    await expect(page.getByTestId('test-order-created')).toBeVisible();
    const detail = (await page.getByTestId('test-order-detail').getAttribute('href'))!;

    const portal: Check[] = [
      { path: '/portal', name: 'portal-overview' },
      // Its one order is a test order: the list shows it (with its badge) when asked to.
      { path: '/portal/orders?test=include', name: 'portal-orders' },
      { path: detail, name: 'portal-order-detail' },
      { path: '/portal/keys', name: 'portal-keys' },
      { path: '/portal/credentials', name: 'portal-credentials' },
      { path: '/portal/signature', name: 'portal-signature' },
      { path: '/portal/api', name: 'portal-api' },
      { path: '/portal/account', name: 'portal-account' },
      { path: '/portal/test', name: 'portal-test' },
    ];
    for (const check of portal) await checkPage(page, check, locale);

    const operatorContext = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
    const ops = await operatorContext.newPage();
    try {
      const operator = anOperator(`visual-${testInfo.project.name}-${locale.toLowerCase()}`);
      await signInAsOperator(ops, operator);
      await rememberLocale(ops, locale);
      const console: Check[] = [
        { path: '/operator', name: 'console-overview', aboveLists: true },
        { path: `/operator/merchants?q=${appId}`, name: 'console-merchants' },
        { path: `/operator/merchants/${appId}`, name: 'console-merchant' },
        { path: '/operator/credentials', name: 'console-credentials', aboveLists: true },
        { path: '/operator/addresses', name: 'console-addresses', aboveLists: true },
        { path: '/operator/attention', name: 'console-attention', aboveLists: true },
        { path: `/operator/audit?actor=${encodeURIComponent(operator.email)}`, name: 'console-audit' },
        { path: '/operator/health', name: 'console-health', aboveLists: true },
        { path: '/operator/account', name: 'console-account' },
      ];
      for (const check of console) await checkPage(ops, check, locale);
    } finally {
      await operatorContext.close();
    }
  });
}
