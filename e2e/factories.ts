import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import pg from 'pg';
import { ensureEmbeddedServer } from '../lib/db/embedded-server';
import { nextAuthenticatorCode, type AuthenticatorApp } from '../test/totp-code';
import { baseURL, onStagingService } from '../playwright.config';
import { postServerAction, serverActionsUnder } from './server-actions';

/**
 * The one factory module of the Playwright specs: people (merchants through the sign-up form, operators through the
 * CLI), rows the service would take too long to produce, orders, and the running service's database.
 */
/** Runs the operator CLI as an operator would, next to the running service (same database). */
export function admin(...args: string[]): any {
  const output = execFileSync(process.execPath, ['dist/cli/admin.js', ...args, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg' },
  });
  return JSON.parse(output);
}

/** A valid TRON address (base58check of 0x41 + 20 random bytes). */
export function randomTronAddress(): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const payload = Buffer.concat([Buffer.from([0x41]), randomBytes(20)]);
  const checksum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  let value = BigInt(`0x${Buffer.concat([payload, checksum]).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}

export const PASSWORD = 'e2e portal password 1';

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Signs up through the form, which sends every sign-up to sign in (it never says whether the email was new); signs in
 * there and lands on the interface keys page. Returns the AppID.
 */
export async function signUp(page: Page, input: { name: string; email: string; password?: string }): Promise<string> {
  await page.goto('/portal/sign-up');
  await page.getByLabel('Business name').fill(input.name);
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password', { exact: true }).fill(input.password ?? PASSWORD);
  await page.getByLabel('Confirm password').fill(input.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/portal\/sign-in\?signedUp=1/);
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password').fill(input.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/portal/keys');
  const appId = (await page.getByTestId('app-id').textContent())!.trim();
  expect(appId).toMatch(/^mch_/);
  return appId;
}

/** Follows a back-office navigation link the way the reader would: on a phone the links sit behind the menu button. */
export async function followNavLink(page: Page, name: string): Promise<void> {
  const menu = page.getByTestId('nav-menu');
  if (await menu.isVisible()) {
    await menu.locator('summary').click();
    await menu.getByRole('link', { name, exact: true }).click();
    return;
  }
  await page.getByRole('link', { name, exact: true }).first().click();
}

/** The signed-in merchant's AppSecret, revealed on the keys page with the account's password (as the merchant does). */
export async function revealAppSecret(page: Page, password = PASSWORD): Promise<string> {
  await page.goto('/portal/keys');
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: /Reveal AppSecret|显示密钥/ }) });
  await revealForm.locator('input[type=password]').fill(password);
  await revealForm.getByRole('button', { name: /Reveal AppSecret|显示密钥/ }).click();
  return (await page.getByTestId('app-secret').first().textContent())!.trim();
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/portal$/);
}

/** Signs in over plain HTTP through next-auth's credentials endpoint; the request context then carries the session cookie. */
export async function signInOverHttp(request: APIRequestContext, email: string, password = PASSWORD, code?: string): Promise<void> {
  const csrf = await request.get('/api/auth/csrf');
  const { csrfToken } = await csrf.json();
  // As a browser posts it: a post without its Origin is refused (lib/security/same-origin.ts).
  const form = { csrfToken, email, password, json: 'true', ...(code ? { code } : {}) };
  const response = await request.post('/api/auth/callback/credentials', { form, headers: { origin: new URL(csrf.url()).origin } });
  expect(response.ok()).toBe(true);
  const session = await (await request.get('/api/auth/session')).json();
  expect(session.user.email).toBe(email);
}

/** An operator as a spec knows them: the CLI's account, and once set up, their authenticator app (a shared secret). */
export interface OperatorAccount {
  email: string;
  password: string;
  /** The app's secret and the last 30-second step whose code was used (the service takes each step's code once). */
  authenticator?: AuthenticatorApp;
}

/** An operator account made the way an operator makes one: `npm run admin -- operator add`, the password in the environment. */
export function anOperator(label: string): OperatorAccount {
  const email = `ops-${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `operator ${randomBytes(6).toString('hex')}`;
  const output = execFileSync(process.execPath, ['dist/cli/admin.js', 'operator', 'add', '--email', email, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', OPERATOR_PASSWORD: password },
  });
  expect(JSON.parse(output)).toMatchObject({ email, role: 'operator' });
  return { email, password };
}

/** The operator's app's code for a step the service has not taken yet (test/totp-code.ts). */
export async function nextOperatorCode(operator: OperatorAccount): Promise<string> {
  if (!operator.authenticator) throw new Error(`${operator.email} has no authenticator app set up`);
  return nextAuthenticatorCode(operator.authenticator);
}

/**
 * Sets up the operator's authenticator app with the account page's own server actions, in the signed-in request
 * context (a browser context's request shares its cookies): the staging service, a production build, opens the
 * console only to an operator with one.
 */
export async function setUpOperatorAuthenticator(request: APIRequestContext, operator: OperatorAccount): Promise<void> {
  const actions = serverActionsUnder('app/operator/account/');
  const start = await postServerAction(request, actions.get('startOperatorSecondFactorAction')!, [], baseURL);
  const secret = /"secret":"([A-Z2-7]+)"/.exec(await start.text())?.[1];
  expect(secret, `${operator.email}: the set-up's secret`).toBeTruthy();
  operator.authenticator = { secret: secret!, lastStep: 0 };
  const confirm = await postServerAction(request, actions.get('confirmOperatorSecondFactorAction')!, [{ code: await nextOperatorCode(operator) }], baseURL);
  expect(await confirm.text(), `${operator.email}: the set-up confirmed`).toContain('"recoveryCodes"');
}

/**
 * Signs in on the shared sign-in page, with the app's code when the operator has one; an operator lands on the
 * console. On the staging service an operator without an app is sent to set one up first: unless `setUp` is false,
 * it is set up here (as the operator would on that page) and the console opened.
 */
export async function signInAsOperator(page: Page, operator: OperatorAccount, options: { setUp?: boolean } = {}): Promise<void> {
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (operator.authenticator) {
    const code = page.getByLabel('Code from your authenticator app');
    await code.fill(await nextOperatorCode(operator));
    await page.getByRole('button', { name: 'Sign in' }).click();
  } else if (onStagingService) {
    await page.waitForURL(/\/operator\/account\?secondFactor=required$/, { timeout: 60_000 });
    if (options.setUp === false) return;
    await setUpOperatorAuthenticator(page.request, operator);
    await page.goto('/operator');
  }
  await page.waitForURL(/\/operator$/, { timeout: 60_000 });
  await expect(page.getByTestId('operator-email')).toHaveText(operator.email);
}

/** signInAsOperator over plain HTTP (the request context then carries the session cookie), the app set up if need be. */
export async function signInAsOperatorOverHttp(request: APIRequestContext, operator: OperatorAccount): Promise<void> {
  await signInOverHttp(request, operator.email, operator.password, operator.authenticator ? await nextOperatorCode(operator) : undefined);
  if (!operator.authenticator && onStagingService) await setUpOperatorAuthenticator(request, operator);
}

/** The running service's database (the e2e embedded server, or DATABASE_URL), to seed and to check what changed. */
export async function connectE2eDatabase(): Promise<pg.Client> {
  let url = process.env.DATABASE_URL;
  if (!url) {
    process.env.EMBEDDED_PG_DIR = process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg';
    url = (await ensureEmbeddedServer({ owner: false })).databaseUrl;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The same connection for the span of `work`. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectE2eDatabase();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The browser tests run against a staging service (a production build with the sandbox mounted) unless
 * E2E_SERVER=development; there a sandbox chain transfer, which could pay an order, needs an operator's session.
 */
export { onStagingService };

/**
 * Lets `context`'s pages send sandbox chain transfers: on the staging service the payer's browser signs in as an
 * operator first (as a tester of a staging deployment does); a development server lets anyone.
 */
export async function asSandboxPayer(context: BrowserContext): Promise<void> {
  if (!onStagingService) return;
  await signInAsOperatorOverHttp(context.request, anOperator('sandbox-payer'));
}

/** A second browser (another person) with the same device settings as the test's project. */
export function anotherBrowser(browser: Browser, testInfo: TestInfo): Promise<BrowserContext> {
  const use = testInfo.project.use;
  return browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    userAgent: use.userAgent,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
  });
}

// Rows the service would otherwise take minutes or days to produce (a notification failing 10 times over 25 h).

const token = () => randomBytes(12).toString('hex');

export async function merchantIdOf(client: pg.Client, appId: string): Promise<number> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM merchants WHERE app_id = $1', [appId]);
  return Number(rows[0]!.id);
}

/** A USDT order of the merchant, as createUsdtOrder would have stored it. */
export async function seedOrder(client: pg.Client, input: { merchantId: number; addressId: number; amountMinor: number; status: 'pending' | 'paid' }) {
  const orderNo = `U${Date.now()}${randomBytes(3).toString('hex')}`;
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor,
                         chain_type, receiving_address_id, notify_url, pay_token, expires_at, paid_at, paid_via, holds_slot)
     VALUES ($1, $2, $3, 'USDT', $4, 'USDT', $5, $5, '1', $6, 'http://127.0.0.1:9/notify', $7, now() + interval '30 minutes',
             CASE WHEN $4 = 'paid' THEN now() END, CASE WHEN $4 = 'paid' THEN 'chain' END, $4 = 'pending')
     RETURNING id`,
    [orderNo, input.merchantId, `M-${token()}`, input.status, input.amountMinor, input.addressId, token()],
  );
  return { id: Number(rows[0]!.id), orderNo };
}

/** A notification cycle that failed every attempt. */
export async function seedFailedNotification(client: pg.Client, orderId: number): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO notifications (order_id, cycle, status, attempt_count, next_attempt_at, created_at, failed_at, last_error)
     VALUES ($1, 1, 'failed', 10, now(), now() - interval '25 hours', now(), 'HTTP 503 from the merchant')
     RETURNING id`,
    [orderId],
  );
  return Number(rows[0]!.id);
}

/** A confirmed chain transfer as the watcher records it, with its verdict. */
export async function seedTransfer(client: pg.Client, input: { addressId: number; to: string; valueRaw: bigint; verdict: string; orderId?: number }): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO chain_transfers (transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id, value_raw, verdict, order_id)
     VALUES ($1, 0, 1, now(), 'TXsenderxxxxxxxxxxxxxxxxxxxxxxxxxx', $2, $3, $4, $5, $6) RETURNING id`,
    [token() + token(), input.to, input.addressId, input.valueRaw.toString(), input.verdict, input.orderId ?? null],
  );
  return Number(rows[0]!.id);
}

/** A pending ALIPAY credential row (the review only reads its state, never its keys). */
export async function seedPendingCredential(client: pg.Client, merchantId: number): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO upstream_credentials (merchant_id, channel, upstream_app_id, private_key_encrypted, upstream_public_key, review_status, enabled)
     VALUES ($1, 'ALIPAY', $2, 'not-a-real-envelope', 'not-a-real-key', 'pending', true) RETURNING id`,
    [merchantId, String(2021000000000000 + Math.floor(Math.random() * 1e9))],
  );
  return Number(rows[0]!.id);
}

/** A WECHAT order as the spec's Node side creates it, through the WeChat adapter and the built-in sandbox (wechat/create-wechat-order.ts). */
export interface CreatedWechatOrder {
  orderNo: string;
  merchantOrderNo: string;
  payToken: string;
  payUrl: string;
  cashierUrl: string;
  qrContent: string | null;
}

/**
 * A WECHAT order with a payment window of a few seconds, on the running service's database (the open API's window is
 * 30 minutes): `baseURL` is where the service (and its WeChat sandbox) runs.
 */
export function aWechatOrder(
  baseURL: string,
  input: { appId: string; payMethod: 'native' | 'h5'; amountFen: number; notifyUrl: string; redirectUrl?: string; expiresInSeconds?: number },
): CreatedWechatOrder {
  const args = [input.appId, input.payMethod, String(input.amountFen), input.notifyUrl, input.redirectUrl ?? '', input.expiresInSeconds === undefined ? '' : String(input.expiresInSeconds)];
  const output = execFileSync('npx', ['tsx', 'e2e/wechat/create-wechat-order.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', PUBLIC_BASE_URL: baseURL },
  });
  return JSON.parse(output.trim().split('\n').at(-1)!) as CreatedWechatOrder;
}

/** A pending USDT order of the merchant on a fresh receiving address, as the submit would have stored it. */
export async function aPendingUsdtOrderOf(appId: string): Promise<{ id: number; orderNo: string }> {
  const address = randomTronAddress();
  admin('address', 'add', '--chain', 'TRC20', address);
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM receiving_addresses WHERE address = $1', [address]);
    return seedOrder(client, { merchantId: await merchantIdOf(client, appId), addressId: Number(rows[0]!.id), amountMinor: 4321, status: 'pending' });
  });
}
