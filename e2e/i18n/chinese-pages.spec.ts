import { expect, test, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { checkoutFixture } from '../visual/checkout-fixtures';
import { admin, anOperator, signInAsOperator, signUp, uniqueEmail } from '../factories';

/**
 * No English and no raw error text on a Chinese page: every page of the merchant portal, the operator console, the
 * checkout (each channel, pending and closed) and the sandbox payer pages is read in zh-CN, and any ASCII-only word
 * outside the allow-list fails the test with the page and the words. Allowed: what is the same in every language —
 * codes and identifiers (digits, ALL CAPS, the contract's camelCase field names), amounts, addresses, brand and
 * product names — and what is deliberately shown verbatim (code, monospace values, text marked lang="en").
 */
const BRAND_NAMES = new Set([
  'AppID', 'AppSecret', 'AppId', 'Alipay', 'WeChat', 'Pay', 'MetaMask', 'TronLink', 'TronGrid', 'Tronscan', 'Etherscan', 'BscScan', 'PolygonScan',
  'Polygon', 'PoS', 'Ethereum', 'TRON', 'BNB', 'Smart', 'Chain', 'Tether', 'Native', 'OpenAPI', 'Node', 'Python', 'Java', 'Go', 'PHP', 'curl', 'js',
  'English', 'Tea', 'House', 'Oolong', 'tea', 'Test', 'Shop', 'Crawl', 'Bearer', 'Authorization', 'Content-Type', 'Retry-After', 'Idempotency-Key',
  'https', 'http', 'localhost', 'example', 'com', 'shop', 'notify', 'return', 'v1', 'api', 'open', 'order', 'submit', 'query', 'callback',
  'sandbox', 'portal', 'operator', 'pay', 'success', 'ok', 'ganache', 'seller_id', 'app_id', 'trade_no', 'out_trade_no', 'code_url', 'h5_url',
]);
/** A word the same in every language: a code, an amount, an identifier of the contract, a file or host name. */
function isUniversal(word: string): boolean {
  return (
    BRAND_NAMES.has(word) ||
    /\d/.test(word) || // TRC20, BEP20, H5, amounts, ids
    /^[A-Z0-9_-]{2,}$/.test(word) || // USDT, ALIPAY, JSON, HTTP, MD5, PEM
    /^[a-z]+([A-Z][a-z0-9]*)+$/.test(word) || // merchantOrderNo, payType, notifyUrl
    /^[a-z]+(_[a-z0-9]+)+$/.test(word) || // pay_usdt, chain_type
    /^[A-Z]$/.test(word) // a single letter: "T" (TRON addresses start with T)
  );
}

/** The visible words a Chinese reader sees, outside what is shown verbatim on purpose. */
async function englishWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const verbatim = 'code, pre, script, style, noscript, textarea, .mono, .font-mono, [lang="en"], [translate="no"], [data-verbatim]';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const words: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(verbatim) || parent.closest('[hidden], [aria-hidden="true"]')) continue;
      if (!parent.checkVisibility()) continue;
      // Addresses, hashes, URLs and e-mail addresses are values, not words.
      const text = (node.textContent ?? '').replace(/\b[\w.+-]+@[\w.-]+\b/g, ' ').replace(/https?:\/\/\S+/g, ' ').replace(/\b(0x)?[0-9A-Za-z]{25,}\b/g, ' ');
      for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9_'-]*/g)) words.push(match[0].replace(/['-]+$/, ''));
    }
    return words;
  });
}

test('every page read in Chinese shows no English words outside the allow-list', async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the words do not depend on the screen');
  test.setTimeout(600_000);
  const env = { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL };
  const fixture = checkoutFixture({ baseURL, env });
  const checkouts = {
    usdt: await fixture.usdt(),
    yht: await fixture.yht('aliPay'),
    wechat: await fixture.wechat('native'),
    alipay: await fixture.alipay('wap'),
    usdtClosed: await fixture.usdt(),
    wechatClosed: await fixture.wechat('native'),
  };
  fixture.setStates([
    [checkouts.usdtClosed, 'expired'],
    [checkouts.wechatClosed, 'expired'],
  ]);

  const context = await browser.newContext({ ...testInfo.project.use, baseURL, locale: 'zh-CN' });
  const findings: string[] = [];
  const read = async (page: Page, path: string) => {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(500);
    // Pages that poll (the checkout, the sandbox wallets) never go idle: a short wait lets the rest settle.
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    const words = [...new Set((await englishWords(page)).filter((word) => !isUniversal(word)))];
    if (words.length > 0) findings.push(`${path}: ${words.join(', ')}`);
  };
  try {
    const page = await context.newPage();
    for (const path of ['/portal/sign-in', '/portal/sign-up', '/pay/no-such-token']) await read(page, path);
    for (const order of Object.values(checkouts)) await read(page, order.path);
    for (const path of ['/sandbox/tron', '/sandbox/evm']) await read(page, path);

    // The merchant portal, signed in (the factory's form is in English: the language is switched afterwards).
    await context.addCookies([{ name: 'NEXT_LOCALE', value: 'en', url: baseURL }]);
    const appId = await signUp(page, { name: '语言检查', email: uniqueEmail('crawl') });
    admin('merchant', 'orders', 'on', '--app-id', appId);
    await context.addCookies([{ name: 'NEXT_LOCALE', value: 'zh-CN', url: baseURL }]);
    for (const path of ['/portal', '/portal/orders', '/portal/keys', '/portal/credentials', '/portal/branding', '/portal/signature', '/portal/api', '/portal/test', '/portal/account']) {
      await read(page, path);
    }
    await page.getByRole('button', { name: '退出登录' }).first().click().catch(() => undefined);

    // The operator console.
    const operatorContext = await browser.newContext({ ...testInfo.project.use, baseURL, locale: 'zh-CN' });
    try {
      const operatorPage = await operatorContext.newPage();
      await operatorContext.addCookies([{ name: 'NEXT_LOCALE', value: 'en', url: baseURL }]);
      await signInAsOperator(operatorPage, anOperator('crawl'));
      await operatorContext.addCookies([{ name: 'NEXT_LOCALE', value: 'zh-CN', url: baseURL }]);
      for (const path of ['/operator', '/operator/attention', '/operator/audit', '/operator/credentials', '/operator/health', '/operator/merchants', `/operator/merchants/${fixture.appId}`, '/operator/addresses']) {
        await read(operatorPage, path);
      }
    } finally {
      await operatorContext.close();
    }
  } finally {
    await context.close();
  }
  expect(findings, findings.join('\n')).toEqual([]);
});
