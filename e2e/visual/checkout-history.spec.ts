import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
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
    for (const testId of ['pay-amount', 'pay-qr', 'pay-address', 'copy-amount', 'copy-address']) {
      const box = await page.getByTestId(testId).boundingBox();
      expect(box, testId).not.toBeNull();
      expect(box!.y + box!.height, `${testId} bottom`).toBeLessThanOrEqual(844);
    }
    expect(await page.getByTestId('pay-qr').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 100)).toBe(true);
    await expect(page.getByTestId('open-tronlink')).toHaveAttribute('href', /^tronlinkoutside:\/\/pull\.activity\?param=/);
    await context.close();
  });

  test('YHT WeChat h5 is paid on this phone: no QR code, the cashier button first', async ({ page }) => {
    const order = await fixture().yht('wxH5');
    await page.goto(`${order.path}?lang=en`);
    await expect(page.getByTestId('pay-cashier')).toBeVisible();
    await expect(page.getByTestId('pay-qr')).toHaveCount(0);
    const box = await page.getByTestId('pay-cashier').boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  });
});
