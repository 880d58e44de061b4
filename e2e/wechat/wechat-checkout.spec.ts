import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { admin } from '../helpers';
import { startMerchantReceiver } from '../merchant-receiver';

interface CreatedOrder {
  orderNo: string;
  merchantOrderNo: string;
  payToken: string;
  payUrl: string;
  cashierUrl: string;
  qrContent: string | null;
}

/**
 * Creates a WECHAT order through the WeChat adapter and the service's built-in sandbox, on the running service's
 * database (the open API's WECHAT submit is wired at merge; this is the spec's Node side, not an app route).
 */
function wechatOrder(appId: string, payMethod: 'native' | 'h5', amountFen: number, notifyUrl: string, redirectUrl = '', expiresInSeconds = ''): CreatedOrder {
  const output = execFileSync('npx', ['tsx', 'e2e/wechat/create-wechat-order.ts', appId, payMethod, String(amountFen), notifyUrl, redirectUrl, String(expiresInSeconds)], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL },
  });
  return JSON.parse(output.trim().split('\n').at(-1)!) as CreatedOrder;
}

test('native: the checkout shows the QR code and countdown, the sandbox WeChat pays, the page flips to paid and returns to the merchant', async ({ page, context, request }, testInfo) => {
  // First visits compile four pages and routes in dev mode on a shared 2-core machine.
  test.slow();
  const merchant = admin('merchant', 'create', '--name', `E2E WECHAT ${testInfo.project.name}`, '--orders', 'on');
  const receiver = await startMerchantReceiver(merchant.appSecret);
  try {
    const order = wechatOrder(merchant.appId, 'native', 8850, receiver.notifyUrl, receiver.returnUrl);
    expect(order.payUrl).toBe(`${baseURL}/pay/${order.payToken}`);
    expect(order.qrContent).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);

    await page.goto(`/pay/${order.payToken}?lang=en`);
    await expect(page.getByRole('heading', { name: 'Pay with WeChat Pay' })).toBeVisible();
    await expect(page.getByTestId('pay-amount')).toHaveText('¥88.50');
    const qr = page.getByTestId('pay-qr');
    await expect(qr).toBeVisible();
    await expect(qr).toHaveAttribute('alt', 'WeChat Pay QR code for ¥88.50');
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
    await expect(page.getByTestId('pay-time-left')).toHaveText(/^(29|30):\d\d$/);
    await expect(page.getByTestId('pay-status')).toContainText('Waiting for your payment');
    await page.screenshot({ path: testInfo.outputPath('wechat-native-checkout.png'), fullPage: true });

    // "Scanning" with the sandbox WeChat opens its payer page (the QR content names the transaction) in another tab.
    const scanHref = await page.getByTestId('sandbox-scan').getAttribute('href');
    expect(scanHref).toBe(`/sandbox/wechat/pay/${order.qrContent!.split('pr=')[1]}`);
    const phone = await context.newPage();
    await phone.goto(`${scanHref}?lang=en`);
    await expect(phone.getByTestId('payer-amount')).toHaveText('¥88.50');
    await expect(phone.getByTestId('payer-status')).toHaveText('Waiting for payment');
    await phone.getByTestId('payer-pay').click();
    await expect(phone.getByTestId('payer-status')).toHaveText('Paid');
    await expect(phone.getByTestId('payer-notify')).toContainText('HTTP 204');

    // The open checkout learns it from the service (the signed notification set it) and returns to the merchant.
    await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    await page.waitForURL(receiver.returnUrl, { timeout: 15_000 });

    await expect.poll(() => receiver.notifications.length, { timeout: 15_000 }).toBe(1);
    const [notification] = receiver.notifications;
    expect(notification!.signatureValid).toBe(true);
    expect(notification!.form).toMatchObject({ appId: merchant.appId, platformOrderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, payType: 'WECHAT', amount: '88.50', status: 'PAID', attach: 'e2e' });
    expect(notification!.form.tradeNo).toMatch(/^4200\d{24}$/);
    expect((await request.get(`/qr/${order.payToken}.png`)).status()).toBe(410);
  } finally {
    receiver.close();
  }
});

test('h5: the checkout sends the browser to h5_url; after paying WeChat returns it to the checkout, which shows paid (Chinese)', async ({ browser }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E WECHAT H5 ${testInfo.project.name}`, '--orders', 'on');
  const order = wechatOrder(merchant.appId, 'h5', 1200, 'https://merchant.example/n');
  expect(order.payUrl).toBe(order.cashierUrl);
  expect(order.payUrl).toContain(`redirect_url=${encodeURIComponent(`${baseURL}/pay/${order.payToken}?wxreturn=1`)}`);

  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`/pay/${order.payToken}`);
  await expect(page).toHaveURL(/\/sandbox\/wechat\/pay\/[\w-]+\?prepay_id=/);
  await expect(page.getByRole('heading', { name: '微信支付' })).toBeVisible();
  await expect(page.getByTestId('payer-amount')).toHaveText('¥12.00');
  await page.getByTestId('payer-pay').click();
  await expect(page).toHaveURL(new RegExp(`/pay/${order.payToken}\\?wxreturn=1$`));
  await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { name: '已收到付款' })).toBeVisible();
  await context.close();
});

test('an order past its window shows the expired page, and its QR image is gone', async ({ page, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E WECHAT EXP ${testInfo.project.name}`, '--orders', 'on');
  const order = wechatOrder(merchant.appId, 'native', 100, 'https://merchant.example/n', '', '2');
  await page.waitForTimeout(2_500);
  await page.goto(`/pay/${order.payToken}?lang=en`);
  await expect(page.getByTestId('checkout-expired')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This payment has expired' })).toBeVisible();
  await expect(page.getByTestId('pay-qr')).toHaveCount(0);
  expect((await request.get(`/qr/${order.payToken}.png`)).status()).toBe(410);
});
