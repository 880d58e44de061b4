import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { admin } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

function alipayOrder(appId: string, merchantOrderNo: string, extra: Record<string, string>) {
  return { appId, merchantOrderNo, payType: 'ALIPAY', amount: '66.80', productName: 'E2E Gold plan', ...extra };
}

test('an ALIPAY order from submit to paid: checkout, sandbox Alipay cashier, Pay, back to the checkout, merchant notified', async ({ page, request }, testInfo) => {
  // The gateway and the cashier compile on their first visit in dev mode.
  test.setTimeout(150_000);
  const merchant = admin('merchant', 'create', '--name', `E2E ALIPAY ${testInfo.project.name}`, '--orders', 'on');
  const credential = admin('credential', 'add', '--app-id', merchant.appId, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable');
  expect(credential).toMatchObject({ channel: 'ALIPAY', reviewStatus: 'approved', enabled: true, usable: true });
  const receiver = await startMerchantReceiver(merchant.appSecret);
  const merchantOrderNo = `E2E-ALI-${Date.now()}-${testInfo.project.name}`;
  // A phone pays on the mobile website (wap), a desktop on the PC website (web).
  const payMethod = testInfo.project.name === 'phone' ? 'wap' : 'web';
  try {
    const submit = await request.post('/v1/api/open/order/submit', {
      data: signed(alipayOrder(merchant.appId, merchantOrderNo, { payMethod, notifyUrl: receiver.notifyUrl, returnUrl: receiver.returnUrl, attach: 'e2e' }), merchant.appSecret),
    });
    const body = await submit.json();
    expect(body).toMatchObject({ code: 0, message: 'ok', data: { merchantOrderNo, amount: '66.80', credentialId: credential.credentialId, recovered: false } });

    // The payer opens payUrl; the checkout sends the browser on to (the sandbox) Alipay, whose gateway verifies
    // the signed request and shows its cashier.
    await page.goto(`${new URL(body.data.payUrl).pathname}?lang=en`);
    await expect(page).toHaveURL(/\/sandbox\/alipay\/cashier\/\d+$/, { timeout: 60_000 });
    await expect(page.getByTestId('cashier-amount')).toHaveText('¥66.80');
    await expect(page.getByTestId('cashier-status')).toHaveText(/Waiting for payment|等待付款/);
    await page.screenshot({ path: testInfo.outputPath('alipay-cashier.png'), fullPage: true });
    await page.getByTestId('cashier-pay').click();

    // Back at the service's checkout (return_url), which shows what the verified notification set, then on to the merchant.
    await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 30_000 });
    await page.waitForURL(receiver.returnUrl, { timeout: 15_000 });

    const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo, payType: 'ALIPAY' }, merchant.appSecret) });
    const queried = await query.json();
    expect(queried).toMatchObject({ code: 0, message: 'ok', data: { platformOrderNo: body.data.platformOrderNo, status: 2, amount: '66.80' } });
    expect(queried.data.tradeNo).toMatch(/^\d{20,}$/);
    expect(Number.isInteger(queried.data.payTime)).toBe(true);

    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [notification] = receiver.received;
    expect(notification!.signatureValid).toBe(true);
    expect(notification!.form).toMatchObject({
      appId: merchant.appId,
      platformOrderNo: body.data.platformOrderNo,
      merchantOrderNo,
      payType: 'ALIPAY',
      amount: '66.80',
      status: 'PAID',
      tradeNo: queried.data.tradeNo,
      payTime: String(queried.data.payTime),
      attach: 'e2e',
    });
  } finally {
    receiver.close();
  }
});

test('the checkout offers a Pay with Alipay button, in Chinese, and `npm run sandbox -- alipay pay` pays the order', async ({ browser, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E ALIPAY CLI ${testInfo.project.name}`, '--orders', 'on');
  admin('credential', 'add', '--app-id', merchant.appId, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable');
  const merchantOrderNo = `E2E-ALI-CLI-${Date.now()}-${testInfo.project.name}`;
  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed(alipayOrder(merchant.appId, merchantOrderNo, { payMethod: 'web', amount: '12', notifyUrl: 'https://merchant.example/n' }), merchant.appSecret),
  });
  const { data } = await submit.json();

  const context = await browser.newContext({ locale: 'zh-CN', javaScriptEnabled: false }); // no script: the button is the way on
  const page = await context.newPage();
  await page.goto(new URL(data.payUrl).pathname);
  await expect(page.getByRole('heading', { name: '支付宝支付' })).toBeVisible();
  await expect(page.getByTestId('pay-amount')).toHaveText('¥12.00');
  const button = page.getByTestId('pay-alipay');
  await expect(button).toHaveText('使用支付宝支付 ¥12.00');
  expect(await button.getAttribute('href')).toContain('/sandbox/alipay/gateway.do?');

  const output = execFileSync(process.execPath, ['dist/cli/sandbox.js', 'alipay', 'pay', '--order', data.platformOrderNo, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: new URL(data.payUrl).origin },
  });
  expect(JSON.parse(output)).toMatchObject({ outTradeNo: data.platformOrderNo, status: 'TRADE_SUCCESS', newlyPaid: true, notify: { body: 'success', acknowledged: true } });

  await page.reload();
  await expect(page.getByTestId('checkout-paid')).toBeVisible();
  await expect(page.getByRole('heading', { name: '已收到付款' })).toBeVisible();
  await context.close();
  const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo, payType: 'ALIPAY' }, merchant.appSecret) });
  expect((await query.json()).data.status).toBe(2);
});
