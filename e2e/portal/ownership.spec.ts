import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import type pg from 'pg';
import { admin, randomTronAddress, connectE2eDatabase, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';

/**
 * A merchant cannot see or change another merchant's data, checked over HTTP against the running service with real
 * sessions: Bob, signed in, asks every portal page for Alice's things and submits every portal server action with
 * Alice's identifiers (tampering with his own page's requests); without a session every page sends to sign-in and
 * every action refuses. After each attempt the database shows Alice's rows (and Bob's, where he was refused) unchanged.
 * Both merchants sign up once per project; the steps share their browser contexts (serial).
 */
test.describe.configure({ mode: 'serial' });

interface Merchant {
  name: string;
  email: string;
  password: string;
  appId: string;
  secret: string;
  merchantId: number;
  accountId: number;
  orderNo: string;
  merchantOrderNo: string;
  credentialId: number;
  credentialAppId: string;
  context: BrowserContext;
  page: Page;
}

/** Every page under app/portal/(merchant) and every server action in its actions.ts files; a new one fails the guard below. */
const PAGES = ['/portal', '/portal/account', '/portal/api', '/portal/branding', '/portal/credentials', '/portal/keys', '/portal/not-allowed', '/portal/orders', '/portal/orders/[orderNo]', '/portal/signature', '/portal/team', '/portal/test'];
const ACTIONS = [
  'addPasskeyAction',
  'addSandboxCredentialAction',
  'changePasswordAction',
  'changeRoleAction',
  'closeOrderAction',
  'confirmSecondFactorAction',
  'createTestOrderAction',
  'debugSignatureAction',
  'deleteCredentialAction',
  'endOverlapAction',
  'endSessionsAction',
  'inviteMemberAction',
  'refundLatePaymentAction',
  'refundOrderAction',
  'remedyAbnormalRefundAction',
  'removeMemberAction',
  'removePasskeyAction',
  'removeSecondFactorAction',
  'resendNotificationAction',
  'revealSecretAction',
  'revokeInvitationAction',
  'rotateSecretAction',
  'saveBrandingAction',
  'saveCloseNoticesAction',
  'saveTimeZoneAction',
  'setCredentialEnabledAction',
  'setTeamSecondFactorAction',
  'startSecondFactorAction',
  'submitCredentialAction',
  'transferOwnershipAction',
];

let db: pg.Client;
let alice: Merchant;
let bob: Merchant;

function rsaPem() {
  return generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
}

function contextOptions(testInfo: TestInfo) {
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  return { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor, baseURL };
}

async function submitAlipayCredential(page: Page): Promise<{ id: number; appId: string }> {
  const keys = rsaPem();
  const appId = `2021${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`;
  const form = page.getByRole('form', { name: 'ALIPAY credential' });
  await form.getByLabel('App ID').fill(appId);
  await form.getByLabel('App private key').fill(keys.privateKey);
  await form.getByLabel('Alipay public key').fill(keys.publicKey);
  await form.getByRole('button', { name: 'Submit ALIPAY credential' }).click();
  const submitted = form.getByRole('status').filter({ hasText: 'pending review' });
  await expect(submitted).toBeVisible();
  return { id: Number(/Credential (\d+) submitted/.exec((await submitted.textContent())!)![1]), appId };
}

async function fillWechatCredential(page: Page): Promise<string> {
  const keys = rsaPem();
  const appId = `wx${randomBytes(8).toString('hex')}`;
  const form = page.getByRole('form', { name: 'WECHAT credential' });
  await form.getByLabel('App ID (appid)').fill(appId);
  await form.getByLabel('Merchant ID (mchid)').fill(String(1_600_000_000 + Math.floor(Math.random() * 1e8)));
  await form.getByLabel('Merchant certificate serial').fill(randomBytes(20).toString('hex').toUpperCase());
  await form.getByLabel('Merchant private key').fill(keys.privateKey);
  await form.getByLabel('APIv3 key').fill(randomBytes(16).toString('hex'));
  await form.getByRole('textbox', { name: 'WeChat Pay public key', exact: true }).fill(rsaPem().publicKey);
  await form.getByLabel('WeChat Pay public key ID').fill(`PUB_KEY_ID_${randomBytes(8).toString('hex')}`);
  return appId;
}

/** Signs up through the form, takes the AppSecret, places one order that an operator marks paid, submits a credential. */
async function aMerchant(browser: Browser, testInfo: TestInfo, label: string, password: string): Promise<Merchant> {
  const context = await browser.newContext(contextOptions(testInfo));
  const page = await context.newPage();
  const name = `${label} ${testInfo.project.name} ${Date.now()}`;
  const email = uniqueEmail(`${label.toLowerCase()}-owner-${testInfo.project.name}`);
  const appId = await signUp(page, { name, email, password });
  const reveal = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await reveal.getByLabel('Password').fill(password);
  await reveal.getByRole('button', { name: 'Reveal AppSecret' }).click();
  const secret = (await page.getByTestId('app-secret').textContent())!.trim();

  admin('merchant', 'orders', 'on', '--app-id', appId);
  const merchantOrderNo = `OWN-${label}-${Date.now()}-${testInfo.project.name}`;
  const amount = `${2000 + Math.floor(Math.random() * 7000)}.${Math.floor(Math.random() * 90 + 10)}`;
  const submit = await page.request.post('/v1/api/open/order/submit', {
    data: signed({ appId, merchantOrderNo, pay_usdt: amount, chainType: '1', notifyUrl: 'http://127.0.0.1:9/notify' }, secret),
  });
  const { orderNo } = (await submit.json()).data as { orderNo: string };
  admin('order', 'complete', '--app-id', appId, '--merchant-order-no', merchantOrderNo, '--reason', 'ownership e2e');

  await page.goto('/portal/credentials');
  const credential = await submitAlipayCredential(page);
  const [row] = (await db.query('SELECT m.id AS merchant_id, a.id AS account_id FROM merchants m JOIN accounts a ON a.merchant_id = m.id WHERE m.app_id = $1', [appId])).rows;
  return {
    name,
    email,
    password,
    appId,
    secret,
    merchantId: Number(row.merchant_id),
    accountId: Number(row.account_id),
    orderNo,
    merchantOrderNo,
    credentialId: credential.id,
    credentialAppId: credential.appId,
    context,
    page,
  };
}

/** Everything stored about the merchant that a portal action could change. */
async function snapshot(merchant: Merchant) {
  const query = async (text: string, values: unknown[]) => (await db.query(text, values)).rows;
  return {
    merchant: await query('SELECT name, app_secret_encrypted, order_permission, time_zone, updated_at FROM merchants WHERE id = $1', [merchant.merchantId]),
    accounts: await query('SELECT id, email, password_hash, session_version, team_role FROM accounts WHERE merchant_id = $1 ORDER BY id', [merchant.merchantId]),
    invitations: await query('SELECT id, revoked_at, accepted_at FROM team_invitations WHERE merchant_id = $1 ORDER BY id', [merchant.merchantId]),
    sessions: await query('SELECT id, ended_at FROM account_sessions WHERE account_id IN (SELECT id FROM accounts WHERE merchant_id = $1) ORDER BY id', [merchant.merchantId]),
    secondFactors: await query('SELECT account_id, secret_encrypted, confirmed_at FROM account_totp_factors WHERE account_id IN (SELECT id FROM accounts WHERE merchant_id = $1)', [
      merchant.merchantId,
    ]),
    credentials: await query(
      'SELECT id, upstream_app_id, private_key_encrypted, review_status, enabled, deleted_at, updated_at FROM upstream_credentials WHERE merchant_id = $1 ORDER BY id',
      [merchant.merchantId],
    ),
    orders: await query('SELECT order_no, status, paid_at, updated_at FROM orders WHERE merchant_id = $1 ORDER BY id', [merchant.merchantId]),
    // Cycles only: the delivery worker moves a cycle's status on its own while the test runs.
    notifications: await query('SELECT n.id, n.cycle FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.merchant_id = $1 ORDER BY n.id', [
      merchant.merchantId,
    ]),
    audit: await query('SELECT id, actor, action, subject FROM audit_log WHERE subject = ANY($1) OR actor = $2 ORDER BY id', [
      [`merchant:${merchant.appId}`, `order:${merchant.orderNo}`, `credential:${merchant.credentialId}`],
      `account:${merchant.email}`,
    ]),
  };
}

/** What of Alice may never appear on a page Bob is shown. */
function aliceMarkers(): string[] {
  return [alice.appId, alice.orderNo, alice.merchantOrderNo, alice.email, alice.name, alice.credentialAppId, alice.secret];
}

/** A value Bob put in the URL comes back in the page (the search box, the router's state): only the others are Alice's data. */
function expectNoAliceData(html: string, url: string) {
  const markers = aliceMarkers().filter((marker) => !url.includes(marker));
  expect(markers.length, url).toBeGreaterThanOrEqual(4);
  for (const marker of markers) expect(html.includes(marker), `${url} shows ${marker}`).toBe(false);
}

/** The order list's total, as rendered in its status line. */
function ordersTotal(html: string): number {
  const match = /data-testid="orders-total">(\d+)\D/.exec(html);
  if (!match) throw new Error('no order total on the page');
  return Number(match[1]);
}

/**
 * Rewrites the arguments of the next server action the page sends (its body is the JSON array of the arguments),
 * as a merchant editing his own page's request would. Returns a check that the rewrite happened.
 */
async function tamperNextAction(page: Page, rewrite: (args: unknown[]) => unknown[]): Promise<() => Promise<void>> {
  let done = false;
  await page.route(
    (url) => url.pathname.startsWith('/portal'),
    async (route) => {
      const request = route.request();
      if (done || request.method() !== 'POST' || !request.headers()['next-action']) return route.fallback();
      const args: unknown = JSON.parse(request.postData() ?? 'null');
      if (!Array.isArray(args)) throw new Error(`a server action body that is not an argument array: ${request.postData()}`);
      done = true;
      await route.continue({ postData: JSON.stringify(rewrite(args)) });
    },
  );
  return async () => {
    expect(done, 'the action request was rewritten').toBe(true);
    await page.unrouteAll({ behavior: 'wait' });
  };
}

test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(300_000); // first visits compile pages in development mode; the operator CLI runs several times
  db = await connectE2eDatabase();
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  alice = await aMerchant(browser, testInfo, 'Alice', 'alice portal password 1');
  bob = await aMerchant(browser, testInfo, 'Bob', 'bob portal password 1');
});

test.afterAll(async () => {
  await alice?.context.close();
  await bob?.context.close();
  await db?.end();
});

test('the lists below name every portal page and server action', () => {
  const root = path.join(process.cwd(), 'app/portal/(merchant)');
  const pages: string[] = [];
  const actions: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name === 'page.tsx') pages.push(`/portal${path.relative(root, dir) ? `/${path.relative(root, dir)}` : ''}`);
      else if (entry.name === 'actions.ts') actions.push(...[...readFileSync(file, 'utf8').matchAll(/export async function (\w+)/g)].map((match) => match[1]!));
    }
  };
  walk(root);
  expect(pages.sort()).toEqual([...PAGES].sort());
  expect(actions.sort()).toEqual([...ACTIONS].sort());
});

test('pages: Bob never sees Alice’s data, whatever the URL names', async () => {
  test.setTimeout(180_000);
  // The markers are real: Alice sees her own order.
  const own = await alice.context.request.get(`/portal/orders/${alice.orderNo}`);
  expect(own.status()).toBe(200);
  expect(await own.text()).toContain(alice.merchantOrderNo);

  const request = bob.context.request;
  const aliceIds = new URLSearchParams({ merchantId: String(alice.merchantId), appId: alice.appId, id: String(alice.credentialId), orderNo: alice.orderNo });
  for (const page of ['/portal', '/portal/account', '/portal/api', '/portal/credentials', '/portal/keys', '/portal/signature', '/portal/team']) {
    for (const url of [page, `${page}?${aliceIds}`]) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      const html = await response.text();
      expectNoAliceData(html, url);
      expect(html.includes(bob.email), url).toBe(true); // Bob's own page (the navigation names his account)
    }
  }
  for (const page of ['/portal', '/portal/api', '/portal/keys', '/portal/signature']) expect((await (await request.get(page)).text()).includes(bob.appId), page).toBe(true);
  expect((await (await request.get('/portal/credentials')).text()).includes(bob.credentialAppId)).toBe(true);

  // The order list: Alice's numbers in the search find nothing; every filter shows only Bob's order. The dates are
  // calendar days in Bob's time zone (Asia/Shanghai, a new merchant's).
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  for (const query of [`q=${alice.orderNo}`, `q=${alice.merchantOrderNo}`, `q=${alice.orderNo}&status=paid&channel=USDT&from=${today}&to=${today}`]) {
    const html = await (await request.get(`/portal/orders?${query}`)).text();
    expect(ordersTotal(html), query).toBe(0);
    expectNoAliceData(html, query);
  }
  for (const query of ['', 'status=paid', 'channel=USDT', `from=${today}&to=${today}`, `merchantId=${alice.merchantId}&appId=${alice.appId}`, 'page=1']) {
    const html = await (await request.get(`/portal/orders?${query}`)).text();
    expect(ordersTotal(html), query).toBe(1);
    expect(html.includes(bob.orderNo), query).toBe(true);
    expectNoAliceData(html, query);
  }

  // Alice's order by either number is "not found" for Bob.
  for (const orderNo of [alice.orderNo, alice.merchantOrderNo, `${alice.orderNo}?merchantId=${alice.merchantId}`]) {
    const response = await request.get(`/portal/orders/${orderNo}`);
    expect(response.status(), orderNo).toBe(404);
    expectNoAliceData(await response.text(), orderNo);
  }
});

test('actions: Bob’s requests naming Alice’s things are refused, and Alice’s rows do not change', async () => {
  test.setTimeout(240_000);
  const { page } = bob;
  const aliceBefore = await snapshot(alice);
  const bobBefore = await snapshot(bob);

  // Resend notification, with Alice's order number in place of his own.
  await page.goto(`/portal/orders/${bob.orderNo}`);
  const resend = page.getByRole('button', { name: 'Resend notification' });
  await resend.evaluate((button: HTMLButtonElement, orderNo: string) => (button.dataset.orderNo = orderNo), alice.orderNo);
  await resend.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not found' })).toBeVisible();

  // Enable/disable and delete, with Alice's credential id in place of his own.
  await page.goto('/portal/credentials');
  const row = page.getByTestId(`credential-${bob.credentialId}`);
  let rewritten = await tamperNextAction(page, ([, enabled]) => [alice.credentialId, enabled]);
  await row.getByRole('button', { name: `Disable credential ${bob.credentialId}` }).click();
  await expect(row.getByRole('alert').filter({ hasText: 'Not found' })).toBeVisible();
  await rewritten();
  await page.reload();
  rewritten = await tamperNextAction(page, () => [alice.credentialId]);
  await row.getByRole('button', { name: `Delete credential ${bob.credentialId}` }).click();
  await row.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(row.getByRole('alert').filter({ hasText: 'Not found' })).toBeVisible();
  await rewritten();

  // Reveal and rotate with Alice's password: refused, checked against Bob's own account.
  await page.goto('/portal/keys');
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await expect(revealForm.getByRole('button', { name: 'Reveal AppSecret' })).toBeEnabled();
  await revealForm.getByLabel('Password').fill(alice.password);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  await expect(revealForm.getByRole('alert').filter({ hasText: 'The password is not correct' }).first()).toBeVisible();
  const rotateForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Rotate AppSecret' }) });
  await rotateForm.getByLabel('I understand that requests signed with the old AppSecret are refused once it stops working').check();
  await rotateForm.getByLabel('Password').fill(alice.password);
  await rotateForm.getByRole('button', { name: 'Rotate AppSecret' }).click();
  await expect(rotateForm.getByRole('alert').filter({ hasText: 'The password is not correct' }).first()).toBeVisible();

  // Password change with Alice's current password: refused.
  await page.goto('/portal/account');
  await expect(page.getByRole('button', { name: 'Change password' })).toBeEnabled();
  await page.getByLabel('Current password').fill(alice.password);
  await page.getByLabel('New password', { exact: true }).fill('taken over password 1');
  await page.getByLabel('Confirm new password').fill('taken over password 1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The password is not correct' }).first()).toBeVisible();

  // Ending a session, with Alice's session id in place of his own: no session of his account, so nothing ends.
  const [aliceSession] = (await db.query('SELECT id FROM account_sessions WHERE account_id = $1 AND ended_at IS NULL ORDER BY last_seen_at DESC LIMIT 1', [alice.accountId])).rows;
  rewritten = await tamperNextAction(page, () => [{ sessionId: aliceSession.id }]);
  await page.getByRole('button', { name: "Sign out here: end this browser's session" }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That session has ended already' })).toBeVisible();
  await rewritten();

  // A role change and a removal on the Team page, with Alice's account id in place of his own: not in his team.
  await page.goto('/portal/team');
  const ownRow = page.getByTestId('team-member').filter({ hasText: bob.email });
  await ownRow.getByLabel(`Role of ${bob.email}`, { exact: true }).selectOption('viewer');
  rewritten = await tamperNextAction(page, () => [alice.accountId, 'viewer']);
  await ownRow.getByRole('button', { name: `Change role of ${bob.email}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not found' })).toBeVisible();
  await rewritten();

  // The signature debugger signs with Bob's own secret, never Alice's, even for a body that Alice signed, naming her
  // AppID, sent with her identifiers: her valid signature differs from what Bob's secret gives.
  await page.goto('/portal/signature');
  // Typed before the form has hydrated, the body could be taken for another (unreadable) one: wait for the form.
  await expect(page.getByRole('button', { name: 'Check signature' })).toBeEnabled();
  await page.getByLabel('Request body').fill(JSON.stringify(signed({ appId: alice.appId, merchantOrderNo: 'X-1', pay_usdt: '1.00' }, alice.secret)));
  rewritten = await tamperNextAction(page, ([input]) => [{ ...(input as object), merchantId: alice.merchantId, appId: alice.appId }]);
  await page.getByRole('button', { name: 'Check signature' }).click();
  await expect(page.getByTestId('signature-hints')).toContainText('The signature differs');
  await rewritten();

  expect(await snapshot(alice)).toEqual(aliceBefore);
  expect(await snapshot(bob)).toEqual(bobBefore); // a refusal changes nothing of Bob's either
});

test('actions: identifiers of Alice added to Bob’s own requests are ignored; Bob’s changes land on Bob only', async () => {
  test.setTimeout(240_000);
  const { page } = bob;
  const aliceBefore = await snapshot(alice);
  const inject = (input: unknown) => ({ ...(input as object), merchantId: alice.merchantId, merchant_id: alice.merchantId, accountId: alice.accountId, appId: alice.appId, email: alice.email });

  // Submitting credentials with Alice's merchant id added: they are Bob's.
  await page.goto('/portal/credentials');
  let rewritten = await tamperNextAction(page, ([input]) => [{ ...inject(input), appId: (input as { appId: string }).appId }]);
  const alipay = await submitAlipayCredential(page);
  await rewritten();
  const wechatAppId = await fillWechatCredential(page);
  rewritten = await tamperNextAction(page, ([input]) => [{ ...inject(input), appId: (input as { appId: string }).appId }]);
  const wechatForm = page.getByRole('form', { name: 'WECHAT credential' });
  await wechatForm.getByRole('button', { name: 'Submit WECHAT credential' }).click();
  await expect(wechatForm.getByRole('status').filter({ hasText: 'pending review' })).toBeVisible();
  await rewritten();
  const owners = (await db.query('SELECT upstream_app_id, merchant_id FROM upstream_credentials WHERE upstream_app_id = ANY($1)', [[alipay.appId, wechatAppId]])).rows;
  expect(owners.map((owner) => Number(owner.merchant_id))).toEqual([bob.merchantId, bob.merchantId]);

  // Reveal and rotate with Alice's ids added: Bob's secret is shown and rotated; Alice's stays and still signs.
  await page.goto('/portal/keys');
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await revealForm.getByLabel('Password').fill(bob.password);
  rewritten = await tamperNextAction(page, ([password]) => [password, alice.merchantId, alice.appId]);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  await expect(page.getByTestId('app-secret')).toHaveText(bob.secret);
  await rewritten();
  await page.getByRole('button', { name: 'Hide' }).click();
  const rotateForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Rotate AppSecret' }) });
  await rotateForm.getByLabel('I understand that requests signed with the old AppSecret are refused once it stops working').check();
  await rotateForm.getByLabel('Password').fill(bob.password);
  rewritten = await tamperNextAction(page, ([input]) => [inject(input)]);
  await rotateForm.getByRole('button', { name: 'Rotate AppSecret' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'New AppSecret created' })).toBeVisible();
  await rewritten();
  const bobNewSecret = (await page.getByTestId('app-secret').textContent())!.trim();
  expect([bob.secret, alice.secret]).not.toContain(bobNewSecret);
  const query = (appId: string, secret: string) => page.request.post('/v1/api/open/order/query', { data: signed({ appId, merchantOrderNo: 'NO-SUCH' }, secret) });
  expect((await (await query(alice.appId, alice.secret)).json()).code).toBe(1006); // Alice's secret still signs
  expect((await (await query(bob.appId, bobNewSecret)).json()).code).toBe(1006);
  bob.secret = bobNewSecret;

  // Password change with Alice's account id and email added: Bob's password changes, Alice's does not.
  await page.goto('/portal/account');
  const newPassword = 'bob second password 1';
  await page.getByLabel('Current password').fill(bob.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  rewritten = await tamperNextAction(page, ([input]) => [inject(input)]);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();
  await rewritten();
  bob.password = newPassword;

  // Time zone with Alice's ids added: Bob's zone changes, Alice's does not.
  await page.getByRole('combobox', { name: 'Time zone' }).selectOption('Asia/Tokyo');
  rewritten = await tamperNextAction(page, ([input]) => [inject(input)]);
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Time zone saved' })).toBeVisible();
  await rewritten();
  expect((await db.query('SELECT time_zone FROM merchants WHERE id = $1', [bob.merchantId])).rows).toEqual([{ time_zone: 'Asia/Tokyo' }]);

  expect(await snapshot(alice)).toEqual(aliceBefore);
  // Alice's session and password still work.
  expect((await alice.context.request.get('/portal/keys')).url()).toMatch(/\/portal\/keys$/);
});

test('without a session every page sends to sign-in and every action refuses, changing nothing', async ({ playwright }, testInfo) => {
  test.setTimeout(240_000);
  const anonymous = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const url of ['/portal', '/portal/account', '/portal/api', '/portal/branding', '/portal/credentials', '/portal/keys', '/portal/orders', `/portal/orders/${alice.orderNo}`, '/portal/signature', '/portal/test']) {
    const response = await anonymous.get(url, { maxRedirects: 0 });
    expect([302, 303, 307, 308], url).toContain(response.status());
    expect(response.headers().location, url).toContain('/portal/sign-in');
  }
  await anonymous.dispose();

  const { page, context } = bob;
  const cookies = await context.cookies();
  const before = { alice: await snapshot(alice), bob: await snapshot(bob) };
  /** Opens the page signed in, drops the session, runs the action: the action answers with the way to sign-in. */
  async function refusedWithoutSession(url: string, act: () => Promise<void>, prepare?: () => Promise<void>) {
    await context.addCookies(cookies);
    await page.goto(url);
    await prepare?.();
    await context.clearCookies();
    const action = page.waitForRequest((request) => request.method() === 'POST' && Boolean(request.headers()['next-action']));
    await act();
    await action;
    await page.waitForURL('**/portal/sign-in**');
  }

  await refusedWithoutSession(`/portal/orders/${bob.orderNo}`, () => page.getByRole('button', { name: 'Resend notification' }).click());
  const row = page.getByTestId(`credential-${bob.credentialId}`);
  await refusedWithoutSession('/portal/credentials', () => row.getByRole('button', { name: `Disable credential ${bob.credentialId}` }).click());
  await refusedWithoutSession(
    '/portal/credentials',
    () => row.getByRole('button', { name: 'Confirm delete' }).click(),
    () => row.getByRole('button', { name: `Delete credential ${bob.credentialId}` }).click(),
  );
  await refusedWithoutSession('/portal/credentials', () => page.getByRole('button', { name: 'Submit ALIPAY credential' }).click());
  await refusedWithoutSession('/portal/credentials', () => page.getByRole('button', { name: 'Submit WECHAT credential' }).click());
  await refusedWithoutSession(
    '/portal/keys',
    () => page.getByRole('button', { name: 'Reveal AppSecret' }).click(),
    () => page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) }).getByLabel('Password').fill(bob.password),
  );
  await refusedWithoutSession(
    '/portal/keys',
    () => page.getByRole('button', { name: 'Rotate AppSecret' }).click(),
    async () => {
      const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Rotate AppSecret' }) });
      await form.getByLabel('I understand that requests signed with the old AppSecret are refused once it stops working').check();
      await form.getByLabel('Password').fill(bob.password);
    },
  );
  await refusedWithoutSession(
    '/portal/account',
    () => page.getByRole('button', { name: 'Change password' }).click(),
    async () => {
      await page.getByLabel('Current password').fill(bob.password);
      await page.getByLabel('New password', { exact: true }).fill('anonymous password 1');
      await page.getByLabel('Confirm new password').fill('anonymous password 1');
    },
  );
  await refusedWithoutSession(
    '/portal/account',
    () => page.getByRole('button', { name: 'Save time zone' }).click(),
    async () => {
      await page.getByRole('combobox', { name: 'Time zone' }).selectOption('UTC');
    },
  );
  await refusedWithoutSession('/portal/account', () => page.getByRole('button', { name: 'Set up an authenticator app' }).click());
  await refusedWithoutSession('/portal/account', () => page.getByRole('button', { name: "Sign out here: end this browser's session" }).click());
  await refusedWithoutSession(
    '/portal/signature',
    () => page.getByRole('button', { name: 'Check signature' }).click(),
    () => page.getByLabel('Request body').fill(JSON.stringify({ appId: bob.appId, merchantOrderNo: 'X-2', pay_usdt: '1.00', signature: '0' })),
  );
  await expect(page.getByTestId('app-secret')).toHaveCount(0);

  expect({ alice: await snapshot(alice), bob: await snapshot(bob) }).toEqual(before);
  await context.addCookies(cookies);
});
