import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { admin } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

function yhtOrder(appId: string, merchantOrderNo: string, extra: Record<string, string>) {
  return { appId, merchantOrderNo, payType: 'YHT', channel: 'YHT', payMethod: 'aliPay', payMoney: '88.5', productName: 'E2E VIP', ...extra };
}

test('a YHT order from submit to paid: checkout, sandbox cashier, Pay, paid view, return to the merchant, signed notification', async ({ page, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E YHT ${testInfo.project.name}`, '--orders', 'on');
  const receiver = await startMerchantReceiver(merchant.appSecret);
  const merchantOrderNo = `E2E-YHT-${Date.now()}-${testInfo.project.name}`;
  try {
    const submit = await request.post('/v1/api/open/order/submit', {
      data: signed(yhtOrder(merchant.appId, merchantOrderNo, { notifyUrl: receiver.notifyUrl, redirectUrl: receiver.returnUrl, attach: 'e2e' }), merchant.appSecret),
    });
    const body = await submit.json();
    expect(body).toMatchObject({ code: 0, message: 'success', data: { merchantOrderNo, payMethod: 'aliPay', status: '0' } });
    expect(Object.keys(body.data)).toEqual(['orderNo', 'merchantOrderNo', 'payUrl', 'qrCodeUrl', 'payMethod', 'status']);

    const qrImage = await request.get(new URL(body.data.qrCodeUrl).pathname);
    expect(qrImage.status()).toBe(200);
    expect(qrImage.headers()['content-type']).toBe('image/png');

    await page.goto(`${new URL(body.data.payUrl).pathname}?lang=en`);
    await expect(page.getByRole('heading', { name: 'Pay with Alipay' })).toBeVisible();
    await expect(page.getByTestId('pay-amount')).toHaveText('¥88.50');
    await expect(page.getByTestId('pay-method')).toHaveText('Alipay');
    const qr = page.getByTestId('pay-qr');
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
    await expect(page.getByTestId('pay-time-left')).toHaveText(/^(29|30):\d\d$/);
    await page.screenshot({ path: testInfo.outputPath('yht-checkout.png'), fullPage: true });

    // The payer continues to the aggregator's cashier (the sandbox here) and pays there.
    await page.getByTestId('pay-cashier').click();
    await expect(page).toHaveURL(/\/sandbox\/yht\/cashier\/YHT\d+$/);
    await expect(page.getByTestId('cashier-amount')).toHaveText('¥88.50');
    await expect(page.getByTestId('cashier-status')).toHaveText('Waiting for payment');
    await page.getByTestId('cashier-pay').click();

    // Back at the service's checkout, which shows the state the signed callback set, then on to the merchant.
    await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 15_000 });
    await page.waitForURL(receiver.returnUrl, { timeout: 15_000 });

    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [notification] = receiver.received;
    expect(notification!.signatureValid).toBe(true);
    expect(notification!.form).toMatchObject({
      appId: merchant.appId,
      orderNo: body.data.orderNo,
      merchantOrderNo,
      payType: 'YHT',
      payMoney: '88.50',
      status: 'PAID',
      attach: 'e2e',
    });
    expect(notification!.form.tradeNo).toMatch(/^YHT\d+$/);

    const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo, payType: 'YHT' }, merchant.appSecret) });
    expect((await query.json()).data).toMatchObject({ orderNo: body.data.orderNo, status: '1', payMoney: '88.50' });
    expect((await request.get(new URL(body.data.qrCodeUrl).pathname)).status()).toBe(410);
  } finally {
    receiver.close();
  }
});

test('npm run sandbox -- yht pay pays an order of the running service; the open checkout flips to paid by itself', async ({ browser, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E YHT CLI ${testInfo.project.name}`, '--orders', 'on');
  const merchantOrderNo = `E2E-YHT-CLI-${Date.now()}-${testInfo.project.name}`;
  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed(yhtOrder(merchant.appId, merchantOrderNo, { payMethod: 'wxH5', payMoney: '12', notifyUrl: 'https://merchant.example/n' }), merchant.appSecret),
  });
  const { data } = await submit.json();

  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(new URL(data.payUrl).pathname);
  await expect(page.getByTestId('pay-method')).toHaveText('微信支付');
  await expect(page.getByTestId('pay-amount')).toHaveText('¥12.00');

  const output = execFileSync(process.execPath, ['dist/cli/sandbox.js', 'yht', 'pay', '--order', data.orderNo, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg' },
  });
  expect(JSON.parse(output)).toMatchObject({ outTradeNo: data.orderNo, status: 'SUCCESS', newlyPaid: true, callback: { body: 'success', acknowledged: true } });

  await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { name: '已收到付款' })).toBeVisible();
  await context.close();
  const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo, payType: 'YHT' }, merchant.appSecret) });
  expect((await query.json()).data.status).toBe('1');
});
