import { expect, test } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { admin, anotherBrowser, asSandboxPayer, PASSWORD, randomTronAddress, signUp, uniqueEmail } from '../factories';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

test('the phone menu opens without JavaScript, and every page is in one language', async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the menu button is the phone layout');
  test.setTimeout(180_000);
  const signedIn = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
  const page = await signedIn.newPage();
  await signUp(page, { name: 'Menu Shop', email: uniqueEmail('menu') });
  const storage = await signedIn.storageState();
  await signedIn.close();

  const noScript = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL, javaScriptEnabled: false, storageState: storage });
  const plain = await noScript.newPage();
  try {
    await plain.goto('/portal');
    const menu = plain.getByTestId('nav-menu');
    const orders = menu.getByRole('link', { name: 'Orders', exact: true });
    await expect(orders).toBeHidden();
    await menu.locator('summary').click();
    await expect(orders).toBeVisible();
    await orders.click();
    await plain.waitForURL('**/portal/orders');
    await expect(plain.locator('h1')).toHaveText('Orders');
    // The page fits the phone: nothing scrolls sideways.
    expect(await plain.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(plain.viewportSize()!.width);
    await expect(plain.locator('body')).not.toContainText('·');
  } finally {
    await noScript.close();
  }
});

test('the language switch is remembered across pages and sign-ins; a Chinese browser starts in Chinese; refusals are in Chinese only', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const chinese = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL, locale: 'zh-CN' });
  const page = await chinese.newPage();
  const email = uniqueEmail(`switch-${testInfo.project.name}`);
  try {
    await page.goto('/portal/sign-in');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.locator('h1')).toHaveText('登录');
    await page.getByRole('button', { name: /English/ }).click();
    await page.waitForURL('**/portal/sign-in');
    await expect(page.locator('h1')).toHaveText('Sign in');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    // Remembered on the next page and after signing up, whatever the browser says.
    await signUp(page, { name: 'Switch Shop', email });
    await expect(page.locator('h1')).toHaveText('Interface keys');
    await page.getByRole('button', { name: 'Language: 中文' }).click();
    await page.waitForURL('**/portal/keys');
    await expect(page.locator('h1')).toHaveText('接口密钥');
    await page.goto('/portal/orders');
    await expect(page.locator('h1')).toHaveText('订单');
    await expect(page.locator('body')).not.toContainText('Interface keys');

    // What the domain refuses is said in the page's language, and only in it.
    await page.goto('/portal/keys');
    const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: '显示密钥' }) });
    await expect(revealForm.getByRole('button', { name: '显示密钥' })).toBeEnabled();
    await revealForm.getByLabel('密码').fill('not the password');
    await revealForm.getByRole('button', { name: '显示密钥' }).click();
    await expect(revealForm.getByRole('alert').filter({ hasText: /^密码不正确。$/ })).toBeVisible();
    await expect(revealForm.getByRole('alert').filter({ hasText: /^密码不正确$/ })).toBeVisible();
    await expect(revealForm).not.toContainText('not correct');

    await page.goto('/portal/credentials');
    const form = page.getByRole('form', { name: '支付宝凭证' });
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    await form.getByLabel('应用 ID', { exact: true }).fill('2021000000000001');
    await form.getByLabel('应用私钥').fill('-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----');
    await form.getByLabel('支付宝公钥').fill(publicKey);
    await form.getByLabel('支付宝账号 ID（seller_id）').fill('2088123');
    await form.getByRole('button', { name: '提交支付宝凭证' }).click();
    await expect(form.getByRole('alert').filter({ hasText: /^应用私钥：不是有效的 PEM 私钥$/ })).toBeVisible();
    await expect(form.getByRole('alert').filter({ hasText: /^支付宝账号 ID（seller_id）：须为 2088 开头的 16 位数字$/ })).toBeVisible();
    await expect(form.getByRole('alert').first()).toHaveText('请检查以下字段：应用私钥：不是有效的 PEM 私钥；支付宝账号 ID（seller_id）：须为 2088 开头的 16 位数字');
    await expect(form).not.toContainText('not a valid');
  } finally {
    await chinese.close();
  }

  // Signing up again with that email, from a Chinese browser without a session.
  const stranger = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL, locale: 'zh-CN' });
  const signUpPage = await stranger.newPage();
  try {
    await signUpPage.goto('/portal/sign-up');
    await signUpPage.getByLabel('商户名称').fill('Switch Shop again');
    await signUpPage.getByLabel('邮箱').fill(email);
    await signUpPage.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await signUpPage.getByLabel('确认密码').fill(PASSWORD);
    await signUpPage.getByRole('button', { name: '创建账户' }).click();
    // Answered as any sign-up (never "already registered"), in Chinese only.
    await signUpPage.waitForURL(/\/portal\/sign-in\?signedUp=1/);
    await expect(signUpPage.getByRole('status')).toContainText('如果已有账户，请用该账户的密码登录');
    await expect(signUpPage.locator('main')).not.toContainText('已注册');
    await expect(signUpPage.locator('main')).not.toContainText('already');
  } finally {
    await stranger.close();
  }
});

test('an empty sign-in form names the missing field', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'a form check, the same on every screen');
  await page.goto('/portal/sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').first()).toHaveText('Enter your email address and password.');
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Email').fill('someone@example.com');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').first()).toHaveText('Enter your password.');
  await expect(page.getByText('Email or password is not correct')).toHaveCount(0);
});

test('test mode: create a USDT test order, pay it in the sandbox, see the notification body and resend it', async ({ page, request, browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'a server flow, the same on every screen');
  test.setTimeout(240_000);
  const appId = await signUp(page, { name: 'Test Mode Shop', email: uniqueEmail('test-mode') });
  admin('merchant', 'orders', 'on', '--app-id', appId);
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const receiver = await startMerchantReceiver('not-checked');
  try {
    await page.getByRole('link', { name: 'Test mode' }).click();
    await page.waitForURL('**/portal/test');
    await page.getByLabel('Channel').selectOption('USDT');
    await page.getByLabel('Amount').fill('12.34');
    await page.getByLabel('Notify URL').fill(receiver.notifyUrl);
    await page.getByRole('button', { name: 'Create test order' }).click();
    await expect(page.getByTestId('test-order-created')).toContainText('created');
    const payUrl = (await page.getByTestId('test-order-pay').getAttribute('href'))!;
    expect(payUrl).toMatch(/\/pay\//);

    // Paid in the sandbox, the way the checkout's sandbox wallet pays it: by a payer's browser, not the merchant's.
    const payer = await anotherBrowser(browser, testInfo);
    await asSandboxPayer(payer);
    const checkout = await payer.newPage();
    await checkout.goto(payUrl);
    const walletHref = (await checkout.getByTestId('sandbox-wallet').getAttribute('href'))!;
    await checkout.goto(walletHref);
    await checkout.getByRole('button', { name: 'Send USDT' }).click();
    await expect(checkout.getByTestId('wallet-sent')).toBeVisible();
    await payer.close();

    await page.goto((await page.getByTestId('test-order-detail').getAttribute('href'))!);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('order-status')).toContainText('Paid', { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByTestId('order-pay-url')).toContainText(payUrl);
    await expect(page.getByTestId('notification-body')).toContainText(`appId=${appId}`);
    await expect(page.getByTestId('notification-body')).toContainText('status=PAID');
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Resend notification' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Notification re-sent' })).toContainText('cycle 2');
    expect((await request.get('/portal/test')).status()).toBe(200);
  } finally {
    await receiver.close();
  }
});
