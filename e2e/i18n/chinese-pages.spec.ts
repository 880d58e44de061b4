import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { getAddress } from 'viem';
import { baseURL } from '../../playwright.config';
import { signed } from '../../test/beds/contract-signer';
import { closedPort } from '../../test/unconnectable-host';
import { checkoutFixture, FIXTURE_MERCHANT } from '../visual/checkout-fixtures';
import { admin, anOperator, merchantIdOf, onStagingService, PASSWORD, randomTronAddress, seedFailedNotification, setUpOperatorAuthenticator, uniqueEmail, withDatabase } from '../factories';
import { englishWords } from './english-words';

/**
 * No English and no raw error text on a Chinese page: every page of the checkout (each channel in each state), the
 * sandbox payer pages, the 404 and 410 pages, the sign-in and sign-up pages, the merchant portal and the operator
 * console is read in zh-CN, with the error states a Chinese user meets (a wrong password, an invalid field, a
 * notification refused by the merchant's server, a rejected credential, an unreadable request body). Any ASCII-only word
 * outside the allow-list (english-words.ts) fails the test, listed with its page.
 */
const MERCHANT_DATA = [FIXTURE_MERCHANT, 'Oolong tea'];
const env = { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL };

async function chineseContext(browser: import('@playwright/test').Browser, use: object): Promise<BrowserContext> {
  const context = await browser.newContext({ ...use, baseURL, locale: 'zh-CN' });
  await context.addCookies([{ name: 'NEXT_LOCALE', value: 'zh-CN', url: baseURL }]);
  return context;
}

test('every page read in Chinese shows no English words outside the allow-list', async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the words of a page do not depend on the screen');
  // ~4 min once compiled; the first visit of each of ~50 pages compiles it in development mode, on a busy machine too.
  test.setTimeout(900_000);
  const findings: string[] = [];
  let pagesRead = 0;

  /** Reads the page shown now; `label` names it in the findings. */
  const readShown = async (page: Page, label: string) => {
    await page.locator('body').waitFor();
    await page.waitForLoadState('load', { timeout: 10_000 }).catch(() => undefined);
    const lang = await page.locator('html').getAttribute('lang');
    const words = await englishWords(page, MERCHANT_DATA);
    pagesRead += 1;
    if (lang !== 'zh-CN') {
      findings.push(`${label}: the page says it is in ${lang}`);
      await page.screenshot({ path: testInfo.outputPath(`not-chinese-${pagesRead}.png`), fullPage: true });
    }
    if (words.length > 0) findings.push(`${label}: ${words.join(', ')}`);
    // Printed as found too: a run cut short still says what it had read.
    if (words.length > 0) console.log(`English on ${label}: ${words.join(', ')}`);
  };
  /**
   * Opens `path` and reads it. A checkout that forwards the browser to the upstream's (sandbox) cashier is followed:
   * `forwardsTo` is where it ends up, and the page shown there is read. Navigation waits for the first bytes only, so a
   * page that replaces itself or keeps polling never aborts the crawl.
   */
  const read = async (page: Page, path: string, options: { status?: number; forwardsTo?: RegExp } = {}) => {
    const response = await page.goto(path, { waitUntil: 'commit' });
    if (options.forwardsTo) {
      await page.waitForURL(options.forwardsTo, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await readShown(page, `${path} → ${new URL(page.url()).pathname}`);
      return;
    }
    expect.soft(response?.status(), path).toBe(options.status ?? 200);
    await page.waitForLoadState('domcontentloaded');
    await readShown(page, path);
  };

  // Checkouts of every channel in every state, as the payer opens them.
  const fixture = checkoutFixture({ baseURL, env });
  const order = {
    usdt: await fixture.usdt(),
    usdtPaid: await fixture.usdt(),
    usdtExpired: await fixture.usdt(),
    yht: await fixture.yht('aliPay'),
    yhtH5: await fixture.yht('wxH5'),
    yhtPaid: await fixture.yht('aliPay'),
    yhtExpired: await fixture.yht('aliPay'),
    wechat: await fixture.wechat('native'),
    wechatH5: await fixture.wechat('h5'),
    wechatPaid: await fixture.wechat('native'),
    wechatExpired: await fixture.wechat('native'),
    alipay: await fixture.alipay('wap'),
    alipayPaid: await fixture.alipay('web'),
    alipayExpired: await fixture.alipay('web'),
    gone: await fixture.yht('aliPay'),
  };
  fixture.setStates([
    [order.usdtPaid, 'paid'],
    [order.yhtPaid, 'paid'],
    [order.wechatPaid, 'paid'],
    [order.alipayPaid, 'paid'],
    [order.usdtExpired, 'expired'],
    [order.yhtExpired, 'expired'],
    [order.wechatExpired, 'expired'],
    [order.alipayExpired, 'expired'],
    [order.gone, 'gone'],
  ]);
  // A BEP20 order: the EVM checkout's own labels.
  admin('address', 'add', '--chain', 'BEP20', getAddress(`0x${randomBytes(20).toString('hex')}`));
  const bep20 = await (
    await fetch(`${baseURL}/v1/api/open/order/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signed({ appId: fixture.appId, merchantOrderNo: `CRAWL-${Date.now()}`, pay_usdt: `${200 + Math.floor(Math.random() * 700)}.37`, chainType: '3', notifyUrl: 'https://shop.example/notify' }, fixture.appSecret)),
    })
  ).json();
  expect(bep20.code, JSON.stringify(bep20)).toBe(0);

  const payer = await chineseContext(browser, testInfo.project.use);
  try {
    const page = await payer.newPage();
    await read(page, '/');
    await read(page, order.usdt.path);
    await read(page, new URL(bep20.data.payUrl).pathname);
    await read(page, order.usdtPaid.path);
    await read(page, order.usdtExpired.path);
    await read(page, order.yhtH5.path);
    await read(page, order.yhtPaid.path);
    await read(page, order.yhtExpired.path);
    await read(page, order.wechat.path);
    await read(page, order.wechatPaid.path);
    await read(page, order.wechatExpired.path);
    await read(page, order.alipayPaid.path);
    await read(page, order.alipayExpired.path);
    // Back from the upstream: these checkouts wait there instead of forwarding again.
    await read(page, `${order.alipay.path}?trade_no=crawl`);
    // A WeChat h5 payUrl is the upstream's page (the sandbox payer's); the ALIPAY checkout forwards to the cashier.
    await read(page, order.wechatH5.path);
    await read(page, order.alipay.path, { forwardsTo: /\/sandbox\/alipay\/cashier\// });
    await read(page, order.yht.path); // a YHT checkout links to the upstream's cashier, read next
    const yhtCashier = await page.getByTestId('pay-cashier').getAttribute('href');
    await read(page, new URL(yhtCashier!, baseURL).pathname);
    await read(page, '/pay/no-such-token-0123456789abcdef', { status: 404 });
    await read(page, order.gone.path, { status: 410 });
    await read(page, `/sandbox/tron?to=${randomTronAddress()}&amount=123.45&back=${encodeURIComponent(order.usdt.path)}`);
    await read(page, '/sandbox/evm');
  } finally {
    await payer.close();
  }

  // The merchant: signs up in Chinese (an invalid form first), and meets a refused notification and a rejected credential.
  const merchantContext = await chineseContext(browser, testInfo.project.use);
  const email = uniqueEmail('crawl');
  try {
    const page = await merchantContext.newPage();
    await read(page, '/portal/sign-in');
    await page.getByLabel('邮箱').fill(email);
    await page.getByLabel('密码').fill('not the password');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await readShown(page, 'sign-in, wrong password');

    await read(page, '/portal/sign-up');
    await page.getByLabel('商户名称').fill('语言检查商户');
    await page.getByLabel('邮箱').fill('not-an-email');
    await page.getByLabel('密码', { exact: true }).fill('short');
    await page.getByLabel('确认密码').fill('other');
    await page.getByRole('button', { name: '创建账户' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await readShown(page, 'sign-up, invalid fields');
    await page.getByLabel('邮箱').fill(email);
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByLabel('确认密码').fill(PASSWORD);
    await page.getByRole('button', { name: '创建账户' }).click();
    await page.waitForURL(/\/portal\/sign-in\?signedUp=1/);
    await expect(page.getByRole('status')).toBeVisible();
    await readShown(page, 'sign-in after signing up');
    await page.getByLabel('邮箱').fill(email);
    await page.getByLabel('密码').fill(PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL('**/portal/keys');
    const appId = (await page.getByTestId('app-id').textContent())!.trim();
    admin('merchant', 'orders', 'on', '--app-id', appId);

    // A paid order whose notification the merchant's server refuses (ECONNREFUSED), one given up on, and a credential rejected.
    const port = await closedPort();
    const { refusedOrderNo, givenUpOrderNo } = await withDatabase(async (client) => {
      const merchantId = await merchantIdOf(client, appId);
      const { rows } = await client.query<{ id: string; order_no: string; merchant_order_no: string }>(
        `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type, notify_url, pay_token, expires_at)
         SELECT 'C' || $2 || g, $1, 'C-' || $2 || '-' || g, 'USDT', 'USDT', 1000 + g, 1000 + g, '1', $3, md5(random()::text) || g, now() + interval '30 minutes'
         FROM generate_series(1, 2) AS g RETURNING id, order_no, merchant_order_no`,
        [merchantId, randomBytes(4).toString('hex'), `http://127.0.0.1:${port}/notify`],
      );
      admin('order', 'complete', '--app-id', appId, '--merchant-order-no', rows[0]!.merchant_order_no, '--reason', '语言检查');
      await seedFailedNotification(client, Number(rows[1]!.id));
      await expect
        .poll(async () => (await client.query(`SELECT 1 FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id WHERE n.order_id = $1 AND a.error IS NOT NULL`, [rows[0]!.id])).rowCount, { timeout: 30_000 })
        .toBeGreaterThan(0);
      return { refusedOrderNo: rows[0]!.order_no, givenUpOrderNo: rows[1]!.order_no };
    });
    const credential = admin('credential', 'add', '--app-id', appId, '--channel', 'WECHAT', '--sandbox');
    admin('credential', 'reject', '--id', String(credential.credentialId ?? credential.id), '--reason', '商户号与应用不匹配');

    for (const path of ['/portal', '/portal/orders', `/portal/orders/${refusedOrderNo}`, `/portal/orders/${givenUpOrderNo}`, '/portal/keys', '/portal/credentials', '/portal/branding', '/portal/api', '/portal/account', '/portal/not-allowed?page=keys', '/portal/team']) {
      await read(page, path);
    }
    // An invitation made on the Team page, its link's page, and a link that is no more.
    const inviteForm = page.locator('form', { has: page.locator('#invite-email') });
    await inviteForm.locator('#invite-email').fill(uniqueEmail('crawl-member'));
    await inviteForm.locator('#invite-role').selectOption('finance');
    await inviteForm.locator('button[type="submit"]').click();
    const invitationLink = (await page.getByTestId('invitation-link').textContent())!.trim();
    await readShown(page, '/portal/team, an invitation made');
    await read(page, new URL(invitationLink).pathname);
    await read(page, '/portal/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    // Test mode: a channel without a usable credential is refused, then a test order is made and opened.
    await read(page, '/portal/test');
    await page.locator('#test-channel').selectOption('WECHAT').catch(() => undefined);
    await page.locator('#test-notifyUrl').fill('https://merchant.example/notify');
    await page.locator('#test-notifyUrl').press('Enter'); // (the header's language switch is a form too)
    await expect(page.locator('[role=alert], [data-testid=test-order-created]').first()).toBeVisible();
    await readShown(page, '/portal/test, a channel without credential');
    // The signature debugger with a body that is not JSON.
    await read(page, '/portal/signature');
    await page.locator('#debug-body').fill('{ not json');
    await page.locator('form', { has: page.locator('#debug-body') }).locator('button[type="submit"]').click();
    await expect(page.locator('[role=alert], [data-testid=signature-result]').first()).toBeVisible();
    await readShown(page, '/portal/signature, a body that is not JSON');
    // Changing the password with a wrong current one.
    await read(page, '/portal/account');
    const passwordForm = page.locator('form', { has: page.locator('input[name="newPassword"]') });
    await passwordForm.locator('input[name="password"]').fill('not the password');
    await page.locator('input[name="newPassword"]').fill('a new password 2');
    await page.locator('input[name="confirmPassword"]').fill('a new password 2');
    await page.locator('input[name="confirmPassword"]').press('Enter');
    await expect(page.getByRole('alert').first()).toBeVisible();
    await readShown(page, '/portal/account, a wrong current password');

    // The operator console, with the merchant above on it. It also lists what other merchants typed (their names, the
    // hosts of their notifyUrls: the specs before this one leave theirs in the database): their data, not our words.
    const othersData = await withDatabase(async (client) => {
      const names = (await client.query<{ name: string }>('SELECT DISTINCT name FROM merchants')).rows.map((row) => row.name);
      const urls = (await client.query<{ url: string }>('SELECT notify_url AS url FROM orders WHERE notify_url IS NOT NULL UNION SELECT notify_url FROM notifications WHERE notify_url IS NOT NULL')).rows;
      const hosts = urls.map((row) => /^\w+:\/\/([^/:?#]+)/.exec(row.url)?.[1]).filter((host): host is string => Boolean(host));
      return [...names, ...new Set(hosts)].sort((a, b) => b.length - a.length); // longest first: a name may hold another
    });
    MERCHANT_DATA.push(...othersData);
    const operatorContext = await chineseContext(browser, testInfo.project.use);
    try {
      const ops = await operatorContext.newPage();
      const operator = anOperator('crawl');
      await ops.goto('/portal/sign-in', { waitUntil: 'domcontentloaded' });
      await ops.getByLabel('邮箱').fill(operator.email);
      await ops.getByLabel('密码').fill(operator.password);
      await ops.getByRole('button', { name: '登录' }).click();
      if (onStagingService) {
        // The staging service (a production build) sends an operator without an authenticator app to set one up.
        await ops.waitForURL(/\/operator\/account\?secondFactor=required$/, { timeout: 60_000 });
        await read(ops, '/operator/account?secondFactor=required');
        await setUpOperatorAuthenticator(ops.request, operator);
      } else {
        await ops.waitForURL(/\/operator$/, { timeout: 60_000 });
      }
      for (const path of ['/operator', `/operator/merchants?q=${appId}`, `/operator/merchants/${appId}`, '/operator/credentials', '/operator/addresses', '/operator/attention', `/operator/audit?actor=${encodeURIComponent(operator.email)}`, '/operator/health', '/operator/reconciliation', '/operator/account']) {
        await read(ops, path);
      }
    } finally {
      await operatorContext.close();
    }
  } finally {
    await merchantContext.close();
  }
  testInfo.annotations.push({ type: 'pages read', description: String(pagesRead) });
  expect(findings, `${findings.length} of ${pagesRead} pages show English:\n${findings.join('\n')}`).toEqual([]);
});
