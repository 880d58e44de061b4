import { expect, test } from '@playwright/test';
import { admin, asSandboxPayer, onStagingService, randomTronAddress } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

test('a USDT order from submit to paid: checkout, sandbox transfer, live flip, return to the merchant, signed notification', async ({ page, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E ${testInfo.project.name}`, '--orders', 'on');
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const receiver = await startMerchantReceiver(merchant.appSecret);
  // A unique amount, so that this order sits on a free address at exactly this amount.
  const amount = `${1000 + Math.floor(Math.random() * 8000)}.${Math.floor(Math.random() * 90 + 10)}`;
  const merchantOrderNo = `E2E-${Date.now()}-${testInfo.project.name}`;

  try {
    const submit = await request.post('/v1/api/open/order/submit', {
      data: signed(
        { appId: merchant.appId, merchantOrderNo, pay_usdt: amount, chainType: '1', productName: 'E2E product', notifyUrl: receiver.notifyUrl, redirectUrl: receiver.returnUrl, attach: 'e2e' },
        merchant.appSecret,
      ),
    });
    const body = await submit.json();
    expect(body.code).toBe(0);
    expect(body.data.pay_usdt).toBe(amount);

    await page.goto(new URL(body.data.payUrl).pathname + '?lang=en');
    await expect(page.getByTestId('pay-amount')).toHaveText(`${amount} USDT`);
    await expect(page.getByTestId('pay-network')).toContainText('TRC20');
    const address = (await page.getByTestId('pay-address').textContent())!.trim();
    expect(admin('address', 'list').addresses.map((row: { address: string }) => row.address)).toContain(address);
    const qr = page.getByTestId('pay-qr');
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
    const countdown = page.getByTestId('pay-time-left');
    await expect(countdown).toHaveText(/^(29|30):\d\d$/);
    const first = await countdown.textContent();
    await expect(countdown).not.toHaveText(first!, { timeout: 5_000 });
    await page.screenshot({ path: testInfo.outputPath('checkout.png'), fullPage: true });

    // The payer sends the exact amount from the sandbox wallet, in another tab.
    const walletHref = await page.getByTestId('sandbox-wallet').getAttribute('href');
    if (onStagingService) {
      // A staging service's sandbox chain pays orders: a payer without an operator's session cannot send on it.
      const refused = await page.request.post('/sandbox/tron/transfer', { form: { to: address, amount }, headers: { origin: new URL(page.url()).origin }, failOnStatusCode: false });
      expect(refused.status()).toBe(401);
    }
    await asSandboxPayer(page.context());
    const wallet = await page.context().newPage();
    await wallet.goto(walletHref!);
    await expect(wallet.getByLabel('To address')).toHaveValue(address);
    await expect(wallet.getByLabel('Amount (USDT)')).toHaveValue(amount);
    await wallet.getByRole('button', { name: 'Send USDT' }).click();
    await expect(wallet.getByTestId('wallet-sent')).toBeVisible();

    // Confirmation, the watcher, then the page's own poll: paid view, then back to the merchant.
    await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 30_000 });
    await page.waitForURL(receiver.returnUrl, { timeout: 15_000 });

    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [notification] = receiver.received;
    expect(notification!.signatureValid).toBe(true);
    expect(notification!.form).toMatchObject({ appId: merchant.appId, merchantOrderNo, payType: 'USDT', pay_usdt: amount, status: 'PAID', attach: 'e2e' });

    const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo }, merchant.appSecret) });
    expect((await query.json()).data.status).toBe('1');
  } finally {
    receiver.close();
  }
});

test('the checkout speaks Chinese to a Chinese browser', async ({ browser, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E zh ${testInfo.project.name}`, '--orders', 'on');
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed({ appId: merchant.appId, merchantOrderNo: `ZH-${Date.now()}-${testInfo.project.name}`, pay_usdt: '12.34', notifyUrl: 'https://merchant.example/n' }, merchant.appSecret),
  });
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(new URL((await submit.json()).data.payUrl).pathname);
  await expect(page.getByRole('heading', { name: 'USDT · TRC20' })).toBeVisible();
  await expect(page.getByText('仅支持 TRC20（波场）网络的 USDT', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'English' }).click();
  await expect(page.getByText('Send USDT on the TRC20 (TRON) network only', { exact: false })).toBeVisible();
  await context.close();
});

test('an unknown payUrl token is a 404, not an order', async ({ page }) => {
  const response = await page.goto('/pay/not-a-real-token-0123456789');
  expect(response?.status()).toBe(404);
});
