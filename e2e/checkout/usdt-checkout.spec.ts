import { expect, test } from '@playwright/test';
import { admin, randomTronAddress, signed } from '../helpers';

test('a merchant created with the CLI while the service runs submits a signed USDT order; the payer sees the checkout', async ({ page, request }, testInfo) => {
  const merchant = admin('merchant', 'create', '--name', `E2E ${testInfo.project.name}`, '--orders', 'on');
  const address = randomTronAddress();
  admin('address', 'add', '--chain', 'TRC20', address);
  // A unique amount, so that this order sits on the new address or on another free one, at exactly this amount.
  const amount = `${1000 + Math.floor(Math.random() * 8000)}.${Math.floor(Math.random() * 90 + 10)}`;

  const submit = await request.post('/v1/api/open/order/submit', {
    data: signed(
      {
        appId: merchant.appId,
        merchantOrderNo: `E2E-${Date.now()}-${testInfo.project.name}`,
        pay_usdt: amount,
        chainType: '1',
        productName: 'E2E product',
        notifyUrl: 'https://merchant.example/notify',
        redirectUrl: 'https://merchant.example/return',
      },
      merchant.appSecret,
    ),
  });
  const body = await submit.json();
  expect(body.code).toBe(0);
  expect(body.data.pay_usdt).toBe(amount);

  await page.goto(new URL(body.data.payUrl).pathname);
  await expect(page.getByTestId('pay-amount')).toHaveText(`${amount} USDT`);
  await expect(page.getByTestId('pay-network')).toContainText('TRC20');
  const shownAddress = (await page.getByTestId('pay-address').textContent())!.trim();
  expect(admin('address', 'list').addresses.map((row: { address: string }) => row.address)).toContain(shownAddress);
  const qr = page.getByTestId('pay-qr');
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
  await expect(page.getByTestId('pay-status')).toHaveText('Waiting for payment');

  const countdown = page.getByTestId('pay-time-left');
  await expect(countdown).toHaveText(/^(29|30):\d\d$/);
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first!, { timeout: 5_000 });
  await page.screenshot({ path: testInfo.outputPath('checkout.png'), fullPage: true });
});

test('an unknown payUrl token is a 404, not an order', async ({ page }) => {
  const response = await page.goto('/pay/not-a-real-token');
  expect(response?.status()).toBe(404);
});
