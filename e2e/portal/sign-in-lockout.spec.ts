import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { ACCOUNT_DAILY_CAP } from '../../lib/accounts/sign-in-throttle';
import { anOperator, PASSWORD, signInAsOperator, signUp, uniqueEmail, withDatabase } from '../factories';
import { expectAxeClean } from '../axe-clean';

/**
 * Guessed passwords against an account, sent as an outside prober sends them: sign-in posts through a proxy the
 * service trusts (PROXY_ADDRESS below), each naming its network in X-Forwarded-For. A flood from one network must not
 * lock the owner out; guesses from many networks lock the account for new networks only, the owner is told on the
 * account page, and an operator sees it and unlocks.
 */
test.describe.configure({ timeout: 300_000 });

const LOCALES = ['en', 'zh-CN'] as const;

/** A fresh IPv6 /64 of the documentation prefix, one subscriber's network to the throttle. */
const aNetwork = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

/**
 * The proxy the staging service trusts (TRUST_PROXY in playwright.config.ts): requests whose socket comes from this
 * loopback address have their X-Forwarded-For believed. The browser's come from 127.0.0.1, whose forwarded headers
 * stay ignored, as the cross-origin spec needs.
 */
const PROXY_ADDRESS = '127.0.0.2';

interface SignInClient {
  /** One sign-in post as the sign-in form sends it; the error code next-auth answers (undefined when signed in). */
  signIn(network: string, email: string, password: string): Promise<string | undefined>;
  /** The email of the session this client's cookies hold, if any. */
  sessionEmail(): Promise<string | undefined>;
}

interface ProxiedResponse {
  status: number;
  body: string;
}

/**
 * A cookie-less client, as a prober's script is, whose requests reach the service through the trusted proxy's address;
 * next-auth's CSRF token is fetched once, so that its posts can run at once (a token fetched per post would replace
 * the cookie under the posts in flight).
 */
async function aClient(baseURL: string | undefined): Promise<SignInClient> {
  const service = new URL(baseURL!);
  const cookies = new Map<string, string>();
  const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<ProxiedResponse>((resolve, reject) => {
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const outgoing = http.request(
        { host: '127.0.0.1', port: service.port, localAddress: PROXY_ADDRESS, method, path, headers: { host: service.host, ...(cookie ? { cookie } : {}), ...headers } },
        (response) => {
          for (const line of response.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const separator = pair!.indexOf('=');
            cookies.set(pair!.slice(0, separator), pair!.slice(separator + 1));
          }
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      outgoing.setTimeout(60_000, () => outgoing.destroy(new Error(`${method} ${path}: no answer in 60 s`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  const { csrfToken } = JSON.parse((await send('GET', '/api/auth/csrf')).body) as { csrfToken: string };
  return {
    async signIn(network, email, password) {
      const form = new URLSearchParams({ csrfToken, email, password, json: 'true' }).toString();
      const answer = await send('POST', '/api/auth/callback/credentials', { origin: service.origin, 'x-forwarded-for': network, 'content-type': 'application/x-www-form-urlencoded' }, form);
      const { url } = JSON.parse(answer.body) as { url: string };
      return new URL(url).searchParams.get('error') ?? undefined;
    },
    async sessionEmail() {
      const session = JSON.parse((await send('GET', '/api/auth/session')).body) as { user?: { email?: string } } | null;
      return session?.user?.email;
    },
  };
}

async function expectSignedIn(client: SignInClient, email: string): Promise<void> {
  expect(await client.sessionEmail()).toBe(email);
}

async function auditActionsOn(email: string): Promise<string[]> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ action: string }>("SELECT action FROM audit_log WHERE subject = (SELECT 'account:' || id FROM accounts WHERE email = $1) ORDER BY id", [email]);
    return rows.map((row) => row.action);
  });
}

function wordsOf(locale: string) {
  const read = (area: string) => JSON.parse(readFileSync(`messages/${locale}/${area}.json`, 'utf8'));
  const portal = read('portal').account.signIns as Record<string, string>;
  const attention = read('console').attention as Record<string, string>;
  const actions = read('console').operatorActions as Record<string, string>;
  const fill = (text: string, values: Record<string, string> = {}) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
  return { portal: (key: string) => portal[key]!, attention: (key: string, values?: Record<string, string>) => fill(attention[key]!, values), actions: (key: string, values?: Record<string, string>) => fill(actions[key]!, values) };
}

test('a flood of 101 sign-in posts at once from one network locks nobody out: the owner signs in from another network at once', async ({ page, baseURL }, testInfo) => {
  test.skip(testInfo.project.name.startsWith('phone'), 'an HTTP test: one screen runs it');
  const email = uniqueEmail('lockout-flood').toLowerCase();
  await signUp(page, { name: 'Flooded shop', email });
  const prober = await aClient(baseURL);
  const flooder = aNetwork();
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 101 }, (_, index) => prober.signIn(flooder, email, `guess ${index}`)));
  testInfo.annotations.push({ type: 'flood', description: `101 posts in ${Date.now() - started} ms` });
  const counts = Object.fromEntries(['CredentialsSignin', 'Throttled', 'AccountLocked'].map((code) => [code, answers.filter((answer) => answer === code).length]));
  expect(counts).toEqual({ CredentialsSignin: 5, Throttled: 96, AccountLocked: 0 });

  const owner = await aClient(baseURL);
  expect(await owner.signIn(aNetwork(), email, PASSWORD)).toBeUndefined();
  await expectSignedIn(owner, email);
  expect(await auditActionsOn(email)).not.toContain('account.sign_in_locked');
});

for (const locale of LOCALES) {
  test(`guesses from ${ACCOUNT_DAILY_CAP} networks (${locale}): new networks refused, the owner's own network and account page, the operator's attention list and unlock; axe clean`, async ({ page, baseURL }, testInfo) => {
    const words = wordsOf(locale);
    const email = uniqueEmail(`lockout-${testInfo.project.name}-${locale}`).toLowerCase();
    // The owner signs up and signs in from loopback: a network of the account from now on.
    await signUp(page, { name: `Guessed shop ${locale}`, email });
    await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);

    const prober = await aClient(baseURL);
    for (let batch = 0; batch < ACCOUNT_DAILY_CAP / 10; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => prober.signIn(aNetwork(), email, `guess ${batch}-${index}`)));
      expect(answers).toEqual(Array(10).fill('CredentialsSignin'));
    }
    const traveller = aNetwork();
    const ownerAway = await aClient(baseURL);
    expect(await ownerAway.signIn(traveller, email, PASSWORD)).toBe('AccountLocked');
    expect(await auditActionsOn(email)).toContain('account.sign_in_locked');

    // At the office (a network it signed in from), the owner still gets in, and is told.
    await page.goto('/portal/account');
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    const attempts = page.getByTestId('sign-in-attempts');
    await expect(attempts.getByRole('heading', { name: words.portal('heading') })).toBeVisible();
    await expect(attempts.getByRole('status')).toBeVisible();
    await expect(attempts.getByRole('row')).toHaveCount(11); // the head and the ten worst networks
    await expectAxeClean(page, `account page (${locale})`);

    // The operator sees the account on the attention list, with its failures by network, and unlocks it.
    await page.context().clearCookies();
    await signInAsOperator(page, anOperator(`lockout-${locale.toLowerCase()}`));
    await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);
    await page.goto('/operator/attention');
    const row = page.getByTestId(`sign-in-lockout-${email}`);
    await expect(row).toContainText(String(ACCOUNT_DAILY_CAP));
    await expect(row.getByRole('listitem')).toHaveCount(1 + 10); // the lock of new networks, then the ten worst networks
    await expectAxeClean(page, `attention list (${locale})`);
    const unlock = row.getByRole('form', { name: words.actions('unlockLabel', { email }) });
    await unlock.getByLabel(words.actions('reason')).fill('the owner called from abroad');
    await unlock.getByRole('button', { name: words.actions('unlockButton') }).click();
    // Said above the list, which the account leaves as the page refreshes.
    await expect(page.locator('section[aria-labelledby="sign-ins-heading"]').getByRole('status')).toContainText(email);

    expect(await ownerAway.signIn(traveller, email, PASSWORD)).toBeUndefined();
    await expectSignedIn(ownerAway, email);
    await page.reload();
    await expect(page.getByTestId(`sign-in-lockout-${email}`)).toHaveCount(0);
    expect(await auditActionsOn(email)).toEqual(expect.arrayContaining(['account.sign_in_locked', 'account.unlock']));
  });
}
