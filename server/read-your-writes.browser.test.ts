import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from '@playwright/test';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { READ_PRIMARY_COOKIE } from '../lib/db/read-your-writes';
import { createMerchant } from '../lib/merchants/merchants';
import { addOperatorAccount } from '../lib/operator/add-operator-account';
import { withAuthenticatorApp } from '../test/operator-authenticator';
import { nextAuthenticatorCode, type AuthenticatorApp } from '../test/totp-code';
import { startRealServer, type RealServer } from '../test/real-server';
import { startStandbyPair, standbyPairUnavailable, type StandbyPair } from '../test/standby-pair';
import { eventually } from '../test/wait-for';

/**
 * Read-your-writes as its user meets it: an operator in Debian's Chromium, on the service as an operator runs it
 * (`npm start` on a production build) with DATABASE_URL on a real primary and DATABASE_REPLICA_URL on its streaming
 * standby. Replay is paused on the standby, so a page that shows a change read the primary and one that does not
 * read the replica. The operator stops a merchant's orders on the merchants list: the list that follows (the action's
 * own answer, the refresh after it, a reload) shows it stopped, while the same operator signed in elsewhere, without
 * the read-primary cookie, still sees it allowed until replay resumes.
 */
const unavailable = standbyPairUnavailable();
if (unavailable) console.warn(`read-your-writes browser test skipped: ${unavailable}`);

/** Large enough that the paused replica stays within it for the whole test: the lists must keep reading it. */
const MAX_LAG_SECONDS = 600;
const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};
let operatorApp: AuthenticatorApp | undefined;
const operator = { email: `ops-ryw-${randomBytes(3).toString('hex')}@example.com`, password: `operator ${randomBytes(6).toString('hex')}` };

let pair: StandbyPair | undefined;
let seedDb: Database | undefined;
let server: RealServer | undefined;
let browser: Browser | undefined;
let merchant: { appId: string; name: string };

async function onServer<T extends pg.QueryResultRow>(port: number, statement: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return (await client.query<T>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

const permissionOn = async (port: number) => (await onServer<{ on: boolean }>(port, 'SELECT order_permission AS "on" FROM merchants WHERE app_id = $1', [merchant.appId]))[0]?.on;

/** A stop that hangs must not keep the others (and the servers) running past the hook. */
const within = (ms: number, work: Promise<unknown> | undefined) => Promise.race([work?.catch((error: unknown) => console.warn(`cleanup: ${String(error)}`)), new Promise((resolve) => setTimeout(resolve, ms).unref())]);

/** A browser of its own (cookies, session) signed in through the sign-in form, as the operator does. */
async function signedIn(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser!.newContext({ baseURL: server!.baseUrl, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A production service asks every operator for the authenticator app's code after the password.
  await page.getByLabel('Code from your authenticator app').fill(await nextAuthenticatorCode(operatorApp!));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/operator$/, { timeout: 60_000 });
  return { context, page };
}

const permissionCell = (page: Page) => page.getByTestId(`merchant-${merchant.appId}`).getByTestId('order-permission');
/** What the merchants list, loaded afresh (a document GET), says of the merchant's orders. */
async function listedPermission(page: Page): Promise<string> {
  await page.goto('/operator/merchants');
  const text = (await permissionCell(page).textContent({ timeout: 30_000 })) ?? '';
  return text.match(/Orders (on|off)/)?.[0] ?? `neither on nor off: ${text}`;
}

describe.skipIf(unavailable !== undefined)('read-your-writes in a browser, on a replica with replay paused', () => {
  beforeAll(async () => {
    pair = await startStandbyPair();
    const primaryUrl = `postgres://postgres@127.0.0.1:${pair.primaryPort}/postgres`;
    await applyMigrations(primaryUrl);
    // The file's own database (test/isolated-database.ts) is not used: the service and the seed are on the pair.
    server = await startRealServer('production', {
      DATABASE_URL: primaryUrl,
      DATABASE_REPLICA_URL: `postgres://postgres@127.0.0.1:${pair.standbyPort}/postgres`,
      DATABASE_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
      WORKERS: 'off',
    });
    // Seeded after the build, so that the replica's last replayed transaction is recent once replay pauses: its lag
    // then counts from here (replica-lag.ts), well within the max.
    seedDb = createDatabase(primaryUrl, 2);
    const account = await addOperatorAccount(seedDb, { ...operator, actor: 'test:read-your-writes' });
    operatorApp = await withAuthenticatorApp(seedDb, account.id);
    const created = await createMerchant(seedDb, { name: `Replica reader ${Date.now()}`, orderPermission: true });
    merchant = { appId: created.merchant.appId, name: created.merchant.name };
    browser = await chromium.launch(CHROMIUM);
  }, 900_000);

  afterAll(async () => {
    if (pair) await within(5_000, onServer(pair.standbyPort, 'SELECT pg_wal_replay_resume()'));
    await within(10_000, browser?.close());
    await within(30_000, server?.stop());
    await within(5_000, seedDb?.$client.end());
    await within(10_000, pair?.close());
  }, 90_000);

  it("the writer's pages read the primary (the action's answer, its refresh, a reload); the same operator elsewhere reads the replica until replay resumes", { timeout: 240_000 }, async () => {
    const writer = await signedIn();
    const elsewhere = await signedIn();
    await eventually(async () => (await permissionOn(pair!.standbyPort)) === true, 'the replica has the merchant', 15_000);
    expect(await listedPermission(writer.page)).toBe('Orders on');
    expect(await listedPermission(elsewhere.page)).toBe('Orders on');

    await onServer(pair!.standbyPort, 'SELECT pg_wal_replay_pause()');
    await eventually(async () => (await onServer<{ state: string }>(pair!.standbyPort, 'SELECT pg_get_wal_replay_pause_state() AS state'))[0]!.state === 'paused', 'replay paused', 10_000);

    // The flow after the click, for the report: the action's POST, then the router's refresh (use-server-action.ts).
    const flow: string[] = [];
    let posted = false;
    const onList = (response: Response) => new URL(response.url()).pathname === '/operator/merchants' && response.request().resourceType() !== 'document';
    const prefetch = (request: Request) => request.headers()['next-router-prefetch'] !== undefined;
    const record = async (response: Response) => {
      const request = response.request();
      const sent = (await request.allHeaders()).cookie ?? '';
      const setCookie = (await response.headersArray()).filter((header) => header.name.toLowerCase() === 'set-cookie').map((header) => header.value.split(';')[0]);
      const kind = request.headers()['next-action'] ? ' (server action)' : prefetch(request) ? ' (prefetch)' : '';
      flow.push(`${request.method()}${kind} ${response.status()} cookie ${sent.includes(READ_PRIMARY_COOKIE) ? 'sent' : 'absent'}${setCookie.length ? `, set ${setCookie.join(', ')}` : ''}`);
    };
    writer.page.on('response', (response) => {
      if (onList(response)) record(response).catch(() => undefined);
    });
    const cell = permissionCell(writer.page);
    const isAction = (response: Response) => {
      if (!onList(response) || response.request().method() !== 'POST') return false;
      posted = true;
      return true;
    };
    const action = writer.page.waitForResponse(isAction, { timeout: 30_000 });
    // The action's answer is the page rendered again (x-action-revalidated) under x-read-primary; Chromium keeps no body
    // of a streamed flight answer, and the router commits it only together with the refresh that follows (the refresh
    // renders last, so it is what the page shows). So the POST is sent for the browser by Playwright (route.fetch, the
    // context's cookies) and handed back as it came, its render of the merchant's toggle read on the way.
    let actionRendered = 'no action';
    await writer.page.route(
      (url) => url.pathname === '/operator/merchants',
      async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const response = await route.fetch();
        const body = await response.text();
        const at = body.indexOf(`"appId":"${merchant.appId}"`);
        actionRendered = at < 0 ? 'not rendered' : (body.slice(at, at + 400).match(/"enabled":(true|false)/)?.[1] ?? 'not rendered');
        await route.fulfill({ response, body });
      },
    );
    const refresh = writer.page.waitForResponse((response) => posted && onList(response) && response.request().method() === 'GET' && !prefetch(response.request()), { timeout: 60_000 });
    for (const waiting of [action, refresh]) waiting.catch(() => undefined); // awaited below; a failure before then is the test's
    const clicked = Date.now();
    const timings: string[] = [];
    try {
      await writer.page.getByRole('button', { name: `Stop orders for ${merchant.name}` }).click();
      await writer.page.getByRole('button', { name: 'Confirm stop' }).click();
      expect((await action).status()).toBe(200);
      expect(actionRendered, "the action's answer rendered the merchant's toggle").toBe('false');
      await refresh; // its answer began; not its finished(), which under page.route one run waited on until the test's timeout
      await cell.filter({ hasText: 'Orders off' }).waitFor({ timeout: 15_000 });
      timings.push(`the stop shown ${Date.now() - clicked} ms after the click`);
      // The refresh (its cookie) rendered it from the primary too: the stop is still shown once its tree is in place.
      await writer.page.waitForTimeout(500);
      expect(await cell.textContent()).toContain('Orders off');
      expect(await permissionOn(pair!.primaryPort)).toBe(false);
      expect(await permissionOn(pair!.standbyPort)).toBe(true); // the write is not replayed: a page showing it read the primary
      const cookie = (await writer.context.cookies()).find((each) => each.name === READ_PRIMARY_COOKIE);
      expect(cookie, `cookies after the action: ${(await writer.context.cookies()).map((each) => each.name).join(', ')}`).toBeDefined();
      expect(Number(cookie!.value)).toBeGreaterThan(Date.now() + (MAX_LAG_SECONDS - 5) * 1000);

      // A reload is a GET: only the cookie sends it to the primary.
      expect(await listedPermission(writer.page)).toBe('Orders off');
      // The same operator elsewhere (no cookie), and the writer without just that cookie: the replica, still allowed.
      expect(await listedPermission(elsewhere.page)).toBe('Orders on');
      await writer.context.clearCookies({ name: READ_PRIMARY_COOKIE });
      expect(await listedPermission(writer.page)).toBe('Orders on');

      await onServer(pair!.standbyPort, 'SELECT pg_wal_replay_resume()');
      const resumed = Date.now();
      await eventually(async () => (await listedPermission(elsewhere.page)) === 'Orders off', 'the replica shows the stop once replay resumed', 15_000);
      timings.push(`the other session saw it ${Date.now() - resumed} ms after replay resumed`);
      expect(await listedPermission(writer.page)).toBe('Orders off');
    } finally {
      console.log(`read-your-writes in a browser: ${timings.join('; ')}; the writer's requests to the list after the click: ${flow.join(' → ')}`);
    }
    await within(5_000, writer.context.close());
    await within(5_000, elsewhere.context.close());
  });
});
