import { expect, test } from '@playwright/test';
import { admin, randomTronAddress, PASSWORD, signIn, signInOverHttp, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

/** Today as the overview's chart names it: a calendar day in the merchant's time zone (Asia/Shanghai, a new merchant's). */
function todayInPagesTimeZone(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
}

test('merchant back office: sign-up, sign-in, reveal and rotate the AppSecret, orders with their notification log', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000); // first visits compile each page in development mode; the operator CLI runs several times
  const email = uniqueEmail(`alice-${testInfo.project.name}`);

  // Sign up, then sign out and in again.
  const appId = await signUp(page, { name: `Alice ${testInfo.project.name}`, email });
  await expect(page.getByTestId('order-permission')).toContainText('not enabled yet');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/portal/sign-in');
  // The same email again: answered as any sign-up (go and sign in), never "this email already has an account".
  await page.goto('/portal/sign-up');
  await page.getByLabel('Business name').fill('Alice again');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/portal\/sign-in\?signedUp=1/);
  await expect(page.getByRole('status')).toContainText('If it already had one, sign in with that account');
  await expect(page.locator('main')).not.toContainText('already has an account');
  await page.goto('/portal/keys');
  await page.waitForURL('**/portal/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Email or password is not correct' })).toBeVisible();
  await signIn(page, email);

  // Reveal: hidden until the password is entered again.
  await page.goto('/portal/keys');
  await expect(page.getByTestId('app-secret')).toHaveCount(0);
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await revealForm.getByLabel('Password').fill('wrong password');
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  await expect(revealForm.getByRole('alert').filter({ hasText: /^The password is not correct\.$/ })).toBeVisible();
  await expect(revealForm).not.toContainText('密码不正确');
  await revealForm.getByLabel('Password').fill(PASSWORD);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  const oldSecret = (await page.getByTestId('app-secret').textContent())!.trim();
  expect(oldSecret.length).toBeGreaterThan(20);
  const query = { appId, merchantOrderNo: 'NO-SUCH-ORDER' };
  expect((await (await request.post('/v1/api/open/order/query', { data: signed(query, oldSecret) })).json()).code).toBe(1006);

  // Rotate without the overlap: the page says when the old secret stops; it stops at once.
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(page.getByText('Keep the old one valid for 24 hours to switch your servers over')).toBeVisible();
  const rotateForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Rotate AppSecret' }) });
  await rotateForm.getByLabel('Keep the old AppSecret valid for 24 hours').uncheck();
  await rotateForm.getByLabel('Password').fill(PASSWORD);
  await rotateForm.getByRole('button', { name: 'Rotate AppSecret' }).click();
  await expect(rotateForm.getByRole('alert').filter({ hasText: 'Confirm that you understand when the old secret stops working' })).toBeVisible();
  await rotateForm.getByLabel('I understand that requests signed with the old AppSecret are refused once it stops working').check();
  await rotateForm.getByRole('button', { name: 'Rotate AppSecret' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'New AppSecret created' })).toBeVisible();
  const middleSecret = (await page.getByTestId('app-secret').textContent())!.trim();
  expect(middleSecret).not.toBe(oldSecret);
  expect(await (await request.post('/v1/api/open/order/query', { data: signed(query, oldSecret) })).json()).toMatchObject({ code: 1002, data: null });
  expect((await (await request.post('/v1/api/open/order/query', { data: signed(query, middleSecret) })).json()).code).toBe(1006);
  await expect(page.getByTestId('secret-overlap')).toHaveCount(0);

  // Rotate with the overlap (the default): both secrets sign until the merchant ends it; the new one can be copied.
  await rotateForm.getByLabel('I understand that requests signed with the old AppSecret are refused once it stops working').check();
  await rotateForm.getByLabel('Password').fill(PASSWORD);
  await rotateForm.getByRole('button', { name: 'Rotate AppSecret' }).click();
  await expect(page.getByTestId('secret-overlap')).toBeVisible();
  const newSecret = (await page.getByTestId('app-secret').textContent())!.trim();
  expect(newSecret).not.toBe(middleSecret);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-app-secret').click();
  await expect(page.getByTestId('copy-app-secret')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newSecret);
  expect((await (await request.post('/v1/api/open/order/query', { data: signed(query, middleSecret) })).json()).code).toBe(1006);
  expect((await (await request.post('/v1/api/open/order/query', { data: signed(query, newSecret) })).json()).code).toBe(1006);
  // Ending it early is as grave as a rotation: confirmed, with the password; then the page says when the old one stopped.
  await page.getByRole('button', { name: 'End the overlap…' }).click();
  const endForm = page.getByRole('form', { name: 'End the overlap…' });
  await endForm.getByRole('button', { name: 'End the overlap now' }).click();
  await expect(endForm.getByRole('alert').filter({ hasText: 'Confirm that the old AppSecret may stop working now.' })).toBeVisible();
  expect((await (await request.post('/v1/api/open/order/query', { data: signed(query, middleSecret) })).json()).code).toBe(1006);
  await endForm.getByLabel('I understand that the old AppSecret stops working at once').check();
  await endForm.getByLabel('Password').fill(PASSWORD);
  await endForm.getByRole('button', { name: 'End the overlap now' }).click();
  await expect(page.getByTestId('overlap-ended')).toHaveText(/^The old AppSecret stopped working at \d{1,2}:\d{2}( [AP]M)?; only the new one signs requests now\.$/);
  await expect(page.getByTestId('secret-overlap')).toHaveCount(0);
  expect(await (await request.post('/v1/api/open/order/query', { data: signed(query, middleSecret) })).json()).toMatchObject({ code: 1002, data: null });
  expect((await (await request.post('/v1/api/open/order/query', { data: signed(query, newSecret) })).json()).code).toBe(1006);

  // An operator enables orders; the merchant places one and it is paid; the notification reaches the merchant.
  admin('merchant', 'orders', 'on', '--app-id', appId);
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const receiver = await startMerchantReceiver(newSecret);
  try {
    const merchantOrderNo = `PORTAL-${Date.now()}-${testInfo.project.name}`;
    const amount = `${2000 + Math.floor(Math.random() * 7000)}.${Math.floor(Math.random() * 90 + 10)}`;
    const submit = await request.post('/v1/api/open/order/submit', {
      data: signed({ appId, merchantOrderNo, pay_usdt: amount, chainType: '1', productName: 'Portal e2e', notifyUrl: receiver.notifyUrl }, newSecret),
    });
    const created = (await submit.json()).data;
    expect(created.orderNo).toBeTruthy();
    admin('order', 'complete', '--app-id', appId, '--merchant-order-no', merchantOrderNo, '--reason', 'portal e2e');
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);

    await page.goto('/portal/orders');
    await expect(page.getByTestId('orders-total')).toContainText('1 order on this page');
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByTestId('orders-total')).toContainText('0 orders on this page');
    await page.getByLabel('Status').selectOption('paid');
    await page.getByLabel('Order number').fill(merchantOrderNo);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByTestId('orders-total')).toContainText('1 order on this page');
    await page.getByRole('link', { name: merchantOrderNo }).click();
    await page.waitForURL(`**/portal/orders/${created.orderNo}`, { timeout: 60_000 }); // compiled on first visit

    await expect(page.getByTestId('order-no')).toHaveText(created.orderNo);
    await expect(page.getByTestId('order-status')).toContainText('Paid');
    const timeline = page.getByTestId('order-timeline');
    await expect(timeline.locator('li[data-kind="created"]')).toHaveCount(1);
    await expect(timeline.locator('li[data-kind="paid"]')).toContainText("via an operator's confirmation");
    await expect(async () => {
      await page.reload();
      await expect(timeline.locator('li[data-kind="notification-attempt"]')).toContainText('HTTP 200', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(timeline.locator('li[data-kind="notification-attempt"]')).toContainText('acknowledged');

    await page.getByRole('button', { name: 'Resend notification' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Notification re-sent' })).toContainText('cycle 2');
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
    expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);
    await expect(async () => {
      await page.reload();
      await expect(timeline.locator('li[data-kind="notification-attempt"]')).toHaveCount(2, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await page.screenshot({ path: testInfo.outputPath('order-detail.png'), fullPage: true });

    // The overview's 7-day chart counts the order today, created and paid.
    await page.goto('/portal');
    const chart = page.getByRole('figure', { name: /Orders per day, last 7 days/ });
    await expect(chart).toContainText('1 created, 1 paid');
    await expect(chart.getByRole('row', { name: `${todayInPagesTimeZone()} 1 1` })).toHaveCount(1);

    // Another merchant, signed in through next-auth's credentials endpoint over plain HTTP, sees none of it.
    const bobEmail = uniqueEmail(`bob-${testInfo.project.name}`);
    const bobContext = await page.context().browser()!.newContext({ baseURL: testInfo.project.use.baseURL });
    const bobPage = await bobContext.newPage();
    await signUp(bobPage, { name: 'Bob', email: bobEmail });
    await signInOverHttp(request, bobEmail);
    const detail = await request.get(`/portal/orders/${created.orderNo}`);
    expect(detail.status()).toBe(404);
    expect(await detail.text()).not.toContain(merchantOrderNo);
    const list = await request.get(`/portal/orders?q=${encodeURIComponent(merchantOrderNo)}`);
    expect(list.status()).toBe(200);
    expect(await list.text()).not.toContain(created.orderNo);
    const keys = await request.get('/portal/keys');
    expect(await keys.text()).not.toContain(appId);

    // Bob tampers with his own resend button to name Alice's order: refused, and Alice's merchant gets nothing.
    admin('merchant', 'orders', 'on', '--app-id', (await bobPage.getByTestId('app-id').textContent())!.trim());
    const bobAppId = (await bobPage.getByTestId('app-id').textContent())!.trim();
    const bobSecretForm = bobPage.locator('form').filter({ has: bobPage.getByRole('button', { name: 'Reveal AppSecret' }) });
    await bobSecretForm.getByLabel('Password').fill(PASSWORD);
    await bobSecretForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
    const bobSecret = (await bobPage.getByTestId('app-secret').textContent())!.trim();
    const bobOrderNo = `BOB-${Date.now()}`;
    const bobAmount = `${2000 + Math.floor(Math.random() * 7000)}.${Math.floor(Math.random() * 90 + 10)}`;
    const bobOrder = (
      await (
        await request.post('/v1/api/open/order/submit', {
          data: signed({ appId: bobAppId, merchantOrderNo: bobOrderNo, pay_usdt: bobAmount, chainType: '1', notifyUrl: 'http://127.0.0.1:9/notify' }, bobSecret),
        })
      ).json()
    ).data;
    admin('order', 'complete', '--app-id', bobAppId, '--merchant-order-no', bobOrderNo, '--reason', 'portal e2e');
    await bobPage.goto(`/portal/orders/${bobOrder.orderNo}`);
    const resend = bobPage.getByRole('button', { name: 'Resend notification' });
    await resend.evaluate((button: HTMLButtonElement, orderNo: string) => (button.dataset.orderNo = orderNo), created.orderNo);
    await resend.click();
    await expect(bobPage.getByRole('alert').filter({ hasText: 'Not found' })).toBeVisible();
    await page.waitForTimeout(1500);
    expect(receiver.received).toHaveLength(2);
    await bobContext.close();
  } finally {
    receiver.close();
  }
});

test('portal pages and the session endpoint need a signed-in merchant', async ({ request }) => {
  for (const path of ['/portal', '/portal/orders', '/portal/keys', '/portal/account', '/portal/signature', '/portal/orders/U20260101000000000000']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect([302, 303, 307, 308], path).toContain(response.status());
    expect(response.headers().location, path).toContain('/portal/sign-in');
  }
  expect(await (await request.get('/api/auth/session')).json()).toEqual({});
});

test('dashboard and signature debugger', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail(`dash-${testInfo.project.name}`);
  const appId = await signUp(page, { name: 'Dashboard shop', email });
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await revealForm.getByLabel('Password').fill(PASSWORD);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  const secret = (await page.getByTestId('app-secret').textContent())!.trim();

  await page.goto('/portal');
  await expect(page.getByText('Order permission is not enabled yet')).toBeVisible();
  await expect(page.getByTestId('dashboard-stats')).toContainText('Today');
  await expect(page.getByText('No paid orders in the last 7 days')).toBeVisible();
  // The 7-day chart: drawn on the server, its figures in a table for assistive technology (none yet: all zeros).
  const chart = page.getByRole('figure', { name: /Orders per day, last 7 days/ });
  await expect(chart).toContainText('0 created, 0 paid');
  await expect(chart.getByTestId('orders-chart-svg').locator('g[data-day]')).toHaveCount(7);
  const chartTable = chart.getByRole('table', { name: 'Orders per day (Asia/Shanghai)' });
  await expect(chartTable.getByRole('row')).toHaveCount(8);
  await expect(chartTable.getByRole('rowheader', { name: todayInPagesTimeZone() })).toHaveCount(1);

  await page.goto('/portal/signature');
  // Fill only once the form is hydrated (its button is enabled then): a first visit compiles the page in development.
  await expect(page.getByRole('button', { name: 'Check signature' })).toBeEnabled();
  const fields = { appId, merchantOrderNo: 'DBG-1', pay_usdt: '10.50', attach: '' };
  // The page signs with the merchant's current AppSecret on the server: the browser never sends one.
  await expect(page.getByLabel('AppSecret')).toHaveCount(0);
  const actionBodies: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && actionBodies.push(request.postData() ?? '')));
  await page.getByLabel('Request body').fill(JSON.stringify(signed(fields, secret)));
  await page.getByRole('button', { name: 'Check signature' }).click();
  await expect(page.getByTestId('signature-result')).toContainText('The signature matches');
  await expect(page.getByTestId('signed-text')).toHaveText(`appId=${appId}&merchantOrderNo=DBG-1&pay_usdt=10.50&appsecret=<AppSecret>`);
  expect(actionBodies.length).toBeGreaterThan(0);
  expect(actionBodies.join('\n')).not.toContain(secret);

  await page.getByLabel('Request body').fill(JSON.stringify(signed(fields, 'an old secret')));
  await page.getByRole('button', { name: 'Check signature' }).click();
  await expect(page.getByTestId('signature-result')).toContainText('The signature does not match');
  await expect(page.getByTestId('signature-hints')).toContainText('The signature differs');
  await expect(page.getByTestId('signature-hints')).toContainText('Left out of the signed text because they are empty: attach');
});

test('password change keeps this session, ends the others, and the new password signs in', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail(`pw-${testInfo.project.name}`);
  await signUp(page, { name: 'Password shop', email });
  const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const otherPage = await other.newPage();
  await signIn(otherPage, email);

  await page.goto('/portal/account');
  await page.getByLabel('Current password').fill('not it at all');
  await page.getByLabel('New password', { exact: true }).fill('a brand new password');
  await page.getByLabel('Confirm new password').fill('a brand new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /^The password is not correct\.$/ })).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('main')).not.toContainText('密码不正确');
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('a brand new password');
  await page.getByLabel('Confirm new password').fill('a brand new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();

  await page.goto('/portal/orders');
  await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible();
  await otherPage.goto('/portal/orders');
  await otherPage.waitForURL('**/portal/sign-in?error=SessionExpired');
  await expect(otherPage.getByRole('alert').filter({ hasText: 'Your session has ended' })).toBeVisible();
  await signIn(otherPage, email, 'a brand new password');
  await other.close();
});
