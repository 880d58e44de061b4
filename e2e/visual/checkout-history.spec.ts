import { expect, test, type Browser, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { asSandboxPayer } from '../factories';
import { checkoutFixture, type CheckoutFixture } from './checkout-fixtures';

/**
 * The checkout in a real browser the way a payer moves through it: Back never bounces to the cashier or forward to the
 * shop again; the pay essentials fit a phone's first screen; a wallet's Back leaves no filled form behind.
 */
const env = { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL };
const SHOP = `${baseURL}/?shop=1`;

// What Back does and what a 390x844 phone shows first do not depend on the project's screen: run once, on desktop.
test.skip(({ isMobile }) => isMobile, 'runs on the desktop project only');

let made: CheckoutFixture | undefined;
/** Made on first use, so a project that skips every test makes no merchant. */
const fixture = (): CheckoutFixture => (made ??= checkoutFixture({ baseURL, env, redirectUrl: SHOP }));

test('ALIPAY: checkout → cashier → Back goes back to the shop, and the checkout does not bounce to the cashier again', async ({ page }) => {
  const order = await fixture().alipay('web');
  await page.goto('/?before=checkout');
  await page.goto(order.path);
  await page.waitForURL(/\/sandbox\/alipay\/cashier\//);
  await page.goBack();
  await expect(page).toHaveURL(`${baseURL}/?before=checkout`);
  // Reached again (a link from the shop), the checkout offers the button instead of leaving by itself.
  await page.goto(order.path);
  await expect(page.getByTestId('pay-alipay')).toBeVisible();
  await page.waitForTimeout(2_000);
  await expect(page).toHaveURL(new RegExp(`${order.path}$`));
});

test('paid → back to the shop → Back does not show a page that sends the payer forward again', async ({ page }) => {
  const order = await fixture().yht('aliPay');
  await page.goto('/?before=checkout');
  await page.goto(`${order.path}?lang=en`);
  await expect(page.getByTestId('checkout-pending')).toBeVisible();
  await expect(page.getByTestId('cancel-order')).toBeVisible();
  fixture().complete(order);
  await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('mark-paid')).toBeVisible();
  await page.waitForURL(SHOP, { timeout: 15_000 });
  await page.goBack();
  await expect(page).toHaveURL(`${baseURL}/?before=checkout`);
  await page.waitForTimeout(4_000);
  await expect(page).toHaveURL(`${baseURL}/?before=checkout`);
});

test('the sandbox TRON wallet: sent, then Back shows an empty form and the way back to the checkout', async ({ page }) => {
  await asSandboxPayer(page.context());
  const order = await fixture().usdt();
  await page.goto(`${order.path}?lang=en`);
  await page.getByTestId('sandbox-wallet').click();
  await expect(page.getByLabel('To address')).not.toHaveValue('');
  await page.getByRole('button', { name: 'Send USDT' }).click();
  await expect(page.getByTestId('wallet-sent')).toBeVisible();
  await expect(page.getByLabel('To address')).toHaveValue('');
  await page.goBack();
  await expect(page.getByLabel('To address')).toHaveValue('');
  await expect(page.getByLabel('Amount (USDT)')).toHaveValue('');
  await expect(page.getByTestId('wallet-already-sent')).toBeVisible();
  await page.getByTestId('wallet-back').click();
  await expect(page).toHaveURL(new RegExp(`${order.path}$`));
});

test('a payUrl closed long ago is 410 Gone with the way back to the shop; an unknown one a branded 404', async ({ page }) => {
  const order = await fixture().yht('aliPay');
  fixture().setStates([[order, 'gone']]);
  const gone = await page.goto(`${order.path}?lang=zh`);
  expect(gone?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: '此支付页面已失效' })).toBeVisible();
  await expect(page.getByTestId('back-to-shop')).toHaveAttribute('href', SHOP);
  const unknown = await page.goto('/pay/no-such-token-0123456789abcdef');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByTestId('checkout-not-found')).toBeVisible();
});

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('USDT: amount, QR, address and both copy buttons on the first screen, before any script runs', async ({ browser }) => {
    const order = await fixture().usdt();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: false, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(order.path);
    // A staging service's banner sits above the page: a production payer's first screen is what is below it.
    const banner = page.getByTestId('sandbox-production-banner');
    const bannerHeight = (await banner.count()) > 0 ? (await banner.boundingBox())!.height : 0;
    for (const testId of ['pay-amount', 'pay-qr', 'pay-address', 'copy-amount', 'copy-address']) {
      const box = await page.getByTestId(testId).boundingBox();
      expect(box, testId).not.toBeNull();
      expect(box!.y + box!.height - bannerHeight, `${testId} bottom`).toBeLessThanOrEqual(844);
    }
    expect(await page.getByTestId('pay-qr').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 100)).toBe(true);
    await expect(page.getByTestId('open-tronlink')).toHaveAttribute('href', /^tronlinkoutside:\/\/pull\.activity\?param=/);
    await context.close();
  });

  const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const DESKTOP = { viewport: { width: 1440, height: 900 } };
  const WORDS = {
    en: { wechatPhone: 'another device', wechatSave: 'Save the QR code', alipayPhone: 'opens Alipay' },
    'zh-CN': { wechatPhone: '另一台设备', wechatSave: '保存二维码', alipayPhone: '打开支付宝' },
  } as const;
  type Locale = keyof typeof WORDS;
  /** The checkout at `path` in a new browser of that screen and language, its QR code shown; closed after `check`. */
  async function onScreen(browser: Browser, screen: typeof PHONE | typeof DESKTOP, locale: Locale, path: string, check: (page: Page) => Promise<void>) {
    const context = await browser.newContext({ ...screen, locale });
    try {
      const page = await context.newPage();
      await page.goto(`${path}?lang=${locale === 'en' ? 'en' : 'zh'}`);
      await expect(page.getByTestId('pay-qr')).toBeVisible();
      await check(page);
    } finally {
      await context.close();
    }
  }

  for (const locale of ['en', 'zh-CN'] as const) {
    test(`WeChat native on a phone keeps the QR code and says how to pay it from this phone (${locale}); a desktop shows the QR alone`, async ({ browser }) => {
      const order = await fixture().wechat('native');
      await onScreen(browser, PHONE, locale, order.path, async (page) => {
      await expect(page.getByTestId('phone-scan-hint')).toContainText(WORDS[locale].wechatPhone);
      const save = page.getByTestId('save-qr');
      await expect(save).toHaveText(WORDS[locale].wechatSave);
      await expect(save).toHaveAttribute('download', /\.png$/);
      const saved = await page.request.get((await save.getAttribute('href'))!);
      expect(saved.headers()['content-type']).toBe('image/png');
      // The hint comes before the QR code, both after the amount and the live status of the first screen.
      const hint = (await page.getByTestId('phone-scan-hint').boundingBox())!;
      const qr = (await page.getByTestId('pay-qr').boundingBox())!;
      expect(hint.y + hint.height).toBeLessThanOrEqual(qr.y);
      for (const testId of ['pay-amount', 'pay-time-left', 'pay-status']) {
        const box = (await page.getByTestId(testId).boundingBox())!;
        expect(box.y + box.height, `${testId} within the first screen`).toBeLessThanOrEqual(844);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      });
      await onScreen(browser, DESKTOP, locale, order.path, async (wide) => {
        await expect(wide.getByTestId('phone-scan-hint')).toBeHidden();
        await expect(wide.getByTestId('save-qr')).toBeHidden();
      });
    });

    test(`YHT Alipay on a phone: the cashier button first and primary, the QR code after it (${locale}); a desktop leads with the QR code`, async ({ browser }) => {
      const order = await fixture().yht('aliPay');
      await onScreen(browser, PHONE, locale, order.path, async (page) => {
      const cashier = page.getByTestId('pay-cashier');
      await expect(cashier).toBeVisible();
      await expect(page.getByTestId('phone-pay-hint')).toContainText(WORDS[locale].alipayPhone);
      const button = (await cashier.boundingBox())!;
      const qr = (await page.getByTestId('pay-qr').boundingBox())!;
      expect(button.y + button.height, 'the cashier button within the first screen').toBeLessThanOrEqual(844);
      expect(button.y + button.height, 'the cashier button before the QR code').toBeLessThanOrEqual(qr.y);
      const background = await cashier.evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(background, 'the cashier button is the primary one').not.toBe('rgb(255, 255, 255)');
      });
      await onScreen(browser, DESKTOP, locale, order.path, async (wide) => {
        await expect(wide.getByTestId('pay-cashier')).toBeVisible();
        await expect(wide.getByTestId('phone-pay-hint')).toBeHidden();
        const wideQr = (await wide.getByTestId('pay-qr').boundingBox())!;
        const wideButton = (await wide.getByTestId('pay-cashier').boundingBox())!;
        expect(wideQr.x + wideQr.width, 'the QR code stands beside the button').toBeLessThanOrEqual(wideButton.x);
        expect(await wide.getByTestId('pay-cashier').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 255, 255)');
      });
    });
  }

  test('YHT WeChat h5 is paid on this phone: no QR code, the cashier button first', async ({ page }) => {
    const order = await fixture().yht('wxH5');
    await page.goto(`${order.path}?lang=en`);
    await expect(page.getByTestId('pay-cashier')).toBeVisible();
    await expect(page.getByTestId('pay-qr')).toHaveCount(0);
    const box = await page.getByTestId('pay-cashier').boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  });
});
