import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { anOperator, PASSWORD, signUp, uniqueEmail, withDatabase } from '../factories';
import { expectAxeClean } from '../axe-clean';

/**
 * Passkeys as their person meets them, in Chromium with its virtual authenticator (the DevTools protocol's WebAuthn
 * domain: a platform authenticator that keeps discoverable credentials and verifies its user): added on the account
 * page after the password, with the recovery codes of a first factor; a sign-in with the passkey alone, and as the
 * second step after the password; a sensitive action confirmed with it past the 10-minute window; a device without
 * the passkey, and a forged answer, refused with the page's words. In both languages, axe clean. An operator held
 * at the account page (production asks a second factor) sets up a passkey instead of an app, and the console opens.
 */
test.describe.configure({ timeout: 240_000 });

const LOCALES = ['en', 'zh-CN'] as const;

function wordsOf(locale: string) {
  const portal = JSON.parse(readFileSync(`messages/${locale}/portal.json`, 'utf8'));
  return {
    passkeys: (key: string) => portal.passkeys[key] as string,
    signIn: (key: string) => portal.signIn[key] as string,
    signInError: (key: string) => portal.signIn.errors[key] as string,
    factor: (key: string) => portal.account.secondFactor[key] as string,
    keys: (key: string) => portal.keys[key] as string,
    stepUp: (key: string) => portal.stepUp[key] as string,
  };
}

/** The page's virtual authenticator: what a laptop's fingerprint reader or a phone's screen lock is to a browser. */
async function withVirtualAuthenticator(page: Page) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', ctap2Version: 'ctap2_1', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    forget: () => devtools.send('WebAuthn.clearCredentials', { authenticatorId }),
  };
}

/** Signs the browser out (its cookies go), keeping its language. */
async function signOut(context: BrowserContext, locale: string, url: string) {
  await context.clearCookies();
  await context.addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(url).hostname, path: '/' }]);
}

/** Adds a passkey on the account page: its name, the step-up the page asks (`password` for a first factor), the button. */
async function addPasskey(page: Page, words: ReturnType<typeof wordsOf>, accountPage: string, name: string, password?: string) {
  await page.goto(accountPage);
  const form = page.getByRole('form', { name: words.passkeys('add') });
  await form.getByLabel(words.passkeys('name')).fill(name);
  if (password) await form.getByLabel(words.passkeys('password')).fill(password);
  await form.getByRole('button', { name: words.passkeys('add') }).click();
}

for (const locale of LOCALES) {
  test(`a passkey is added, signs in alone and as the second step, and confirms a sensitive action (${locale}); axe clean`, async ({ page, context }, testInfo) => {
    const words = wordsOf(locale);
    const email = uniqueEmail(`passkeys-${testInfo.project.name}-${locale}`).toLowerCase();
    await signUp(page, { name: `Passkey shop ${locale}`, email });
    await context.addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);
    const authenticator = await withVirtualAuthenticator(page);

    // Nothing yet; a name is asked for, named on its field; then the passkey, with the password (the first factor).
    await page.goto('/portal/account');
    await expect(page.getByTestId('no-passkeys')).toHaveText(words.passkeys('none'));
    await expectAxeClean(page, `account page, no passkey (${locale})`);
    await addPasskey(page, words, '/portal/account', '', PASSWORD);
    const nameField = page.getByRole('form', { name: words.passkeys('add') }).getByLabel(words.passkeys('name'));
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await addPasskey(page, words, '/portal/account', 'Work laptop', PASSWORD);
    await expect(page.getByRole('list', { name: words.factor('recoveryCodesTitle') }).getByRole('listitem')).toHaveCount(10);
    await expectAxeClean(page, `passkey added, recovery codes shown (${locale})`);
    expect(await authenticator.credentials()).toHaveLength(1);
    await page.goto('/portal/account');
    await expect(page.getByTestId('passkey')).toHaveCount(1);
    await expect(page.getByTestId('passkey')).toContainText('Work laptop');
    await expect(page.getByTestId('passkey')).toContainText(words.passkeys('neverUsed'));

    // Signed out: the passkey alone signs in, no email, no password.
    await signOut(context, locale, page.url());
    await page.goto('/portal/sign-in');
    await expectAxeClean(page, `sign-in page with the passkey button (${locale})`);
    await page.getByRole('button', { name: words.signIn('withPasskey'), exact: true }).click();
    await page.waitForURL(/\/portal$/);

    // A passkey sign-in is a second-factor answer: the reveal asks nothing for 10 minutes; past them, the passkey.
    await page.goto('/portal/keys');
    const reveal = page.locator('form').filter({ has: page.getByRole('button', { name: words.keys('reveal') }) });
    await expect(reveal.getByTestId('step-up-fresh')).toBeVisible();
    await withDatabase((client) =>
      client.query("UPDATE account_sessions SET second_factor_at = now() - interval '11 minutes' WHERE account_id = (SELECT id FROM accounts WHERE email = $1)", [email]),
    );
    await page.goto('/portal/keys');
    await expect(reveal.getByLabel(words.stepUp('recoveryCode'))).toBeVisible();
    await expectAxeClean(page, `keys page, step-up by passkey (${locale})`);
    await reveal.getByTestId('step-up-passkey').click();
    await expect(page.getByTestId('app-secret')).toHaveText(/\S{16,}/);

    // The password, then the passkey as the second step.
    await signOut(context, locale, page.url());
    await page.goto('/portal/sign-in');
    await page.getByLabel(words.signIn('email')).fill(email);
    await page.getByLabel(words.signIn('password'), { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: words.signIn('submit'), exact: true }).click();
    await expect(page.getByRole('alert').first()).toHaveText(words.signInError('SecondFactorRequired'));
    await page.getByRole('button', { name: words.signIn('usePasskey') }).click();
    await page.waitForURL(/\/portal$/);

    // A device that does not hold the passkey: the page says so, and nobody is signed in.
    await authenticator.forget();
    await signOut(context, locale, page.url());
    await page.goto('/portal/sign-in');
    await page.getByRole('button', { name: words.signIn('withPasskey'), exact: true }).click();
    await expect(page.getByRole('alert').first()).toHaveText(words.signInError('PasskeyFailed'));
    await expectAxeClean(page, `sign-in page, no passkey here (${locale})`);
    expect((await (await page.request.get('/api/auth/session')).json())?.user).toBeUndefined();
  });
}

test('a forged passkey answer signs nobody in, and the challenges are refused to a bad purpose', async ({ request }) => {
  const csrf = await request.get('/api/auth/csrf');
  const { csrfToken } = await csrf.json();
  const origin = new URL(csrf.url()).origin;
  const options = await request.post('/api/passkeys/options', { data: { purpose: 'sign_in' }, headers: { origin } });
  expect(options.status()).toBe(200);
  const { challengeId } = await options.json();
  const forged = `passkey:${JSON.stringify({ challengeId, response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' }, clientExtensionResults: {} } })}`;
  const answer = await request.post('/api/auth/callback/credentials', { form: { csrfToken, passkey: forged, json: 'true' }, headers: { origin } });
  expect(await answer.json()).toMatchObject({ url: expect.stringContaining('error=PasskeyInvalid') });
  expect((await (await request.get('/api/auth/session')).json())?.user).toBeUndefined();
  const bad = await request.post('/api/passkeys/options', { data: { purpose: 'everything' }, headers: { origin } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toContain('purpose');
  // A step-up's challenge is for a signed-in account only.
  expect((await request.post('/api/passkeys/options', { data: { purpose: 'step_up' }, headers: { origin } })).status()).toBe(401);
});

test('an operator held at the account page sets up a passkey instead of an app, and the console opens; the passkey signs in', async ({ page, context }) => {
  const words = wordsOf('en');
  const operator = anOperator('passkey');
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password', { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/operator\/account\?secondFactor=required$/);
  await withVirtualAuthenticator(page);
  await addPasskey(page, words, '/operator/account', 'Operations laptop', operator.password);
  await expect(page.getByRole('list', { name: words.factor('recoveryCodesTitle') }).getByRole('listitem')).toHaveCount(10);
  await page.goto('/operator/merchants');
  await expect(page).toHaveURL(/\/operator\/merchants$/);
  await expectAxeClean(page, 'console after a passkey set-up');

  await signOut(context, 'en', page.url());
  await page.goto('/portal/sign-in');
  await page.getByRole('button', { name: words.signIn('withPasskey'), exact: true }).click();
  await page.waitForURL(/\/operator$/);
  await expect(page.getByTestId('operator-email')).toHaveText(operator.email);
});
