import { expect, test, type APIRequestContext } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { admin, aWechatOrder } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

/** A merchant with a WECHAT credential on the built-in WeChat Pay sandbox, approved and enabled by the operator CLI. */
function aWechatMerchant(name: string) {
  const merchant = admin('merchant', 'create', '--name', name, '--orders', 'on');
  const credential = admin('credential', 'add', '--app-id', merchant.appId, '--channel', 'WECHAT', '--sandbox', '--approve', '--enable');
  expect(credential).toMatchObject({ channel: 'WECHAT', usable: true });
  return { ...merchant, credentialId: credential.credentialId as number };
}

/** The merchant's signed WECHAT submit over the open API. */
async function submitWechat(request: APIRequestContext, merchant: { appId: string; appSecret: string }, fields: Record<string, string>) {
  const merchantOrderNo = `E2E-WX-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const response = await request.post('/v1/api/open/order/submit', {
    data: signed({ appId: merchant.appId, merchantOrderNo, payType: 'WECHAT', productName: 'E2E WeChat VIP', attach: 'e2e', ...fields }, merchant.appSecret),
  });
  const body = await response.json();
  expect(body).toMatchObject({ code: 0, message: 'ok', data: { merchantOrderNo, recovered: false } });
  return body.data as { platformOrderNo: string; merchantOrderNo: string; amount: string; credentialId: number; payUrl: string };
}


test('native: the checkout shows the QR code and countdown, the sandbox WeChat pays, the page flips to paid and returns to the merchant', async ({ page, context, request }, testInfo) => {
  // First visits compile four pages and routes in dev mode on a shared 2-core machine.
  test.slow();
  const merchant = aWechatMerchant(`E2E WECHAT ${testInfo.project.name}`);
  const receiver = await startMerchantReceiver(merchant.appSecret);
  try {
    const submitted = await submitWechat(request, merchant, { payMethod: 'native', amount: '88.50', notifyUrl: receiver.notifyUrl, redirectUrl: receiver.returnUrl });
    expect(submitted).toMatchObject({ amount: '88.50', credentialId: merchant.credentialId });
    expect(submitted.payUrl).toMatch(new RegExp(`^${baseURL}/pay/[\\w-]{43}$`));
    const order = { orderNo: submitted.platformOrderNo, merchantOrderNo: submitted.merchantOrderNo, payToken: submitted.payUrl.split('/pay/')[1]! };

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
    expect(scanHref).toMatch(/^\/sandbox\/wechat\/pay\/[\w-]+$/);
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

    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [notification] = receiver.received;
    expect(notification!.signatureValid).toBe(true);
    expect(notification!.form).toMatchObject({ appId: merchant.appId, platformOrderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, payType: 'WECHAT', amount: '88.50', status: 'PAID', attach: 'e2e' });
    expect(notification!.form.tradeNo).toMatch(/^4200\d{24}$/);
    const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, payType: 'WECHAT' }, merchant.appSecret) });
    expect(await query.json()).toMatchObject({ code: 0, message: 'ok', data: { platformOrderNo: order.orderNo, status: 2, amount: '88.50', tradeNo: notification!.form.tradeNo } });
    expect((await request.get(`/qr/${order.payToken}.png`)).status()).toBe(410);
  } finally {
    receiver.close();
  }
});

test('h5: payUrl is h5_url; the checkout also sends the browser there; after paying WeChat returns it to the checkout, which shows paid (Chinese)', async ({ browser, request }, testInfo) => {
  // First visits compile the sandbox payer page and the checkout in dev mode on a shared 2-core machine.
  test.slow();
  const merchant = aWechatMerchant(`E2E WECHAT H5 ${testInfo.project.name}`);
  // The merchant passes the payer's address; WeChat (and the sandbox) lets only a phone at that address pay.
  const submitted = await submitWechat(request, merchant, { payMethod: 'h5', amount: '12.00', notifyUrl: 'https://merchant.example/n', clientIp: '203.0.113.45' });
  const checkout = new URL(new URL(submitted.payUrl).searchParams.get('redirect_url')!);
  expect(`${checkout.origin}${checkout.pathname}`).toMatch(new RegExp(`^${baseURL}/pay/[\\w-]{43}$`));
  expect(checkout.search).toBe('?wxreturn=1');
  const order = { payToken: checkout.pathname.split('/pay/')[1]! };

  const elsewhere = await browser.newContext({ locale: 'zh-CN', extraHTTPHeaders: { 'x-sandbox-payer-ip': '198.51.100.77' } });
  const wrongPhone = await elsewhere.newPage();
  await wrongPhone.goto(submitted.payUrl);
  await expect(wrongPhone.getByTestId('payer-refused')).toHaveText('网络环境未能通过安全验证，请稍后再试');
  await expect(wrongPhone.getByTestId('payer-pay')).toHaveCount(0);
  await elsewhere.close();

  const context = await browser.newContext({ locale: 'zh-CN', extraHTTPHeaders: { 'x-sandbox-payer-ip': '203.0.113.45' } });
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
  const order = aWechatOrder(baseURL, { appId: merchant.appId, payMethod: 'native', amountFen: 100, notifyUrl: 'https://merchant.example/n', expiresInSeconds: 2 });
  await page.waitForTimeout(2_500);
  await page.goto(`/pay/${order.payToken}?lang=en`);
  await expect(page.getByTestId('checkout-expired')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The time to pay is over' })).toBeVisible();
  await expect(page.getByTestId('ended-amount')).toHaveText('Order amount: ¥1.00');
  await expect(page.getByTestId('pay-qr')).toHaveCount(0);
  expect((await request.get(`/qr/${order.payToken}.png`)).status()).toBe(410);
});
