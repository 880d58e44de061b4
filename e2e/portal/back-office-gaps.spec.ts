import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type TestInfo } from '@playwright/test';
import { getAddress } from 'viem';
import { admin, anOperator, followNavLink, randomTronAddress, revealAppSecret, signInAsOperator, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';

/**
 * What a merchant and an operator hit on day one, on the project's screen (phone and desktop), in both languages:
 * branding in the navigation, the error-code table of the API reference (from the one catalogue), the order search
 * by the beginning of a number, the order table that keeps its status column on a phone, adding addresses of every
 * chain in the console.
 */
async function newContext(browser: Browser, testInfo: TestInfo, locale: string) {
  return browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL, locale });
}

test('merchant: branding in the navigation, the error-code table, order search by prefix, the status column on a phone', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  for (const locale of ['en', 'zh-CN'] as const) {
    const context = await newContext(browser, testInfo, locale);
    const page = await context.newPage();
    try {
      // Signing up is in English whatever the browser: the form's words are the factory's.
      await page.goto('/portal/sign-in');
      const appId = await (async () => {
        if (locale === 'en') return signUp(page, { name: `Gaps ${testInfo.project.name}`, email: uniqueEmail('gaps') });
        await context.addCookies([{ name: 'NEXT_LOCALE', value: 'en', url: testInfo.project.use.baseURL! }]);
        const id = await signUp(page, { name: `缺口 ${testInfo.project.name}`, email: uniqueEmail('gaps-zh') });
        await context.addCookies([{ name: 'NEXT_LOCALE', value: 'zh-CN', url: testInfo.project.use.baseURL! }]);
        return id;
      })();
      const words = locale === 'en' ? { branding: 'Checkout branding', api: 'API reference', errors: 'Error codes' } : { branding: '收银台品牌', api: '接口文档', errors: '错误码' };

      await page.goto('/portal');
      await followNavLink(page, words.branding);
      await page.waitForURL('**/portal/branding');

      await page.goto('/portal/api');
      await expect(page.getByRole('heading', { name: words.errors })).toBeVisible();
      const codes = await page.getByTestId('error-codes').locator('tbody tr td:first-child').allTextContents();
      // The same catalogue as the OpenAPI document's (x-error-codes), row for row.
      const document = await (await page.request.get('/v1/api/open/openapi.json')).json();
      const catalogue = document.components.schemas.ErrorEnvelope['x-error-codes'] as { code: number }[];
      expect(codes.map(Number)).toEqual(catalogue.map((error) => error.code));
      await expect(page.getByTestId('error-codes')).toContainText('signature error');

      // Orders by the beginning of the merchant's number or of the platform's.
      const appSecret = await revealAppSecret(page);
      admin('merchant', 'orders', 'on', '--app-id', appId);
      admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
      const merchantOrderNo = `PREFIX-${randomBytes(4).toString('hex')}-${Date.now()}`;
      const submitted = await (
        await page.request.post('/v1/api/open/order/submit', {
          data: signed({ appId, merchantOrderNo, pay_usdt: `${100 + Math.floor(Math.random() * 800)}.${Math.floor(Math.random() * 90 + 10)}`, chainType: '1', notifyUrl: 'https://shop.example/notify' }, appSecret),
        })
      ).json();
      expect(submitted.code, submitted.message).toBe(0);
      for (const prefix of [merchantOrderNo.slice(0, 15), submitted.data.orderNo.slice(0, 8)]) {
        await page.goto(`/portal/orders?q=${encodeURIComponent(prefix)}`);
        await expect(page.locator(`[data-order-no="${submitted.data.orderNo}"]`)).toBeVisible();
      }
      // On a phone the row keeps its status in view: nothing is cut off to the right.
      const status = page.locator(`[data-order-no="${submitted.data.orderNo}"]`);
      const box = (await status.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    } finally {
      await context.close();
    }
  }
});

test('operator: adds a receiving address of an EVM chain from the console', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signInAsOperator(page, anOperator(`evm-address-${testInfo.project.name}`));
  await page.goto('/operator/addresses');
  const address = getAddress(`0x${randomBytes(20).toString('hex')}`);
  const form = page.getByRole('form', { name: 'Add a receiving address' });
  await form.getByLabel('Network').selectOption('BEP20');
  await form.getByLabel('Address').fill(address);
  await form.getByRole('button', { name: 'Add address' }).click();
  await expect(form.getByRole('status')).toBeVisible();
  await expect(page.getByTestId(`address-${address}`)).toContainText('BEP20');
});
