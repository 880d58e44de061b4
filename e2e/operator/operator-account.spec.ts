import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { authenticatorCode } from '../../test/totp-code';
import { baseURL } from '../../playwright.config';
import { admin, anOperator, followNavLink, onStagingService, randomTronAddress, signInAsOperator, withDatabase } from '../factories';
import { postServerAction, serverActionsUnder } from '../server-actions';
import { expectAxeClean } from '../axe-clean';

/**
 * An operator's own account page, reached from the console's navigation: two-step sign-in set up with the app's code
 * (computed here from RFC 6238), the console then asking for the code after the password, and the sessions list; then
 * the factor reset by an operator (`admin account reset-factor`) and the owner told; in both languages, axe clean.
 */
test.describe.configure({ timeout: 300_000 });

const LOCALES = ['en', 'zh-CN'] as const;
const STEP_MS = 30_000;

function wordsOf(locale: string) {
  const read = (area: string) => JSON.parse(readFileSync(`messages/${locale}/${area}.json`, 'utf8'));
  const portal = read('portal');
  const console = read('console');
  return {
    nav: console.nav.links.account as string,
    title: console.account.title as string,
    factor: (key: string) => portal.account.secondFactor[key] as string,
    sessions: (key: string) => portal.account.sessions[key] as string,
    signIn: (key: string) => portal.signIn[key] as string,
    signInError: (key: string) => portal.signIn.errors[key] as string,
    required: console.account.secondFactorRequired as string,
  };
}

/**
 * Production asks two-step sign-in of every operator: until the app is set up, the account page says so, the
 * navigation lists it alone, every other console page sends back to it, every other console action posted (forged,
 * with the operator's own session) is refused before it runs, and `/healthz?details`, which an operator's session
 * opens, does not take it.
 */
async function expectHeldForSetUp(page: Page, words: ReturnType<typeof wordsOf>) {
  await expect(page).toHaveURL(/\/operator\/account\?secondFactor=required$/);
  await expect(page.getByTestId('second-factor-required')).toHaveText(words.required);
  const navigation = page.locator('[data-testid="back-office-nav"] nav a');
  expect(await navigation.evaluateAll((links) => [...new Set(links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))])).toEqual(['/operator/account']);
  await expectAxeClean(page, 'operator account, set-up required');
  for (const path of ['/operator', '/operator/merchants', '/operator/credentials', '/operator/attention', '/operator/audit', '/operator/health', '/operator/reconciliation', '/operator/addresses']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/operator\/account\?secondFactor=required$/);
  }
  const address = randomTronAddress();
  const actions = [...serverActionsUnder('app/operator/').entries()].filter(([, action]) => action.route !== '/operator/account');
  expect(actions.length).toBeGreaterThan(15);
  for (const [name, action] of actions) {
    const args = name === 'addAddressAction' ? [{ chain: 'TRC20', address }] : ['1', '1'];
    const response = await postServerAction(page.request, action, args, baseURL);
    expect(response.headers()['x-action-redirect'] ?? '', name).toContain('/operator/account?secondFactor=required');
  }
  expect(await withDatabase(async (client) => (await client.query('SELECT 1 FROM receiving_addresses WHERE address = $1', [address])).rowCount)).toBe(0);
  expect((await page.request.get('/healthz?details')).status()).toBe(401);
}

for (const locale of LOCALES) {
  test(`an operator sets up two-step sign-in on the account page (${locale}); the console then asks for the code; axe clean`, async ({ page }) => {
    const words = wordsOf(locale);
    const operator = anOperator(`account-${locale.toLowerCase()}`);
    await signInAsOperator(page, operator, { setUp: false });
    await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);
    await page.reload();
    if (onStagingService) await expectHeldForSetUp(page, words);
    await followNavLink(page, words.nav);
    await expect(page).toHaveURL(/\/operator\/account$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.title);
    await expect(page.getByTestId('account-sessions').getByTestId('session-current')).toContainText(words.sessions('thisSession'));
    await expectAxeClean(page, `operator account (${locale})`);

    await page.getByRole('button', { name: words.factor('start') }).click();
    const confirm = page.getByRole('form', { name: words.factor('confirmTitle') });
    const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    await confirm.getByLabel(words.factor('code')).fill(authenticatorCode(secret) === '000000' ? '111111' : '000000');
    await confirm.getByRole('button', { name: words.factor('confirm') }).click();
    await expect(confirm.getByLabel(words.factor('code'))).toHaveAttribute('aria-invalid', 'true');
    const enrolledAt = Date.now();
    await confirm.getByLabel(words.factor('code')).fill(authenticatorCode(secret));
    await confirm.getByRole('button', { name: words.factor('confirm') }).click();
    await expect(page.getByRole('list', { name: words.factor('recoveryCodesTitle') }).getByRole('listitem')).toHaveCount(10);
    await expectAxeClean(page, `operator recovery codes (${locale})`);

    // Signed in again: the password, then the app's code of a later step than the set-up's.
    await page.context().clearCookies({ name: /next-auth/ });
    await page.goto('/portal/sign-in');
    await page.getByLabel(words.signIn('email')).fill(operator.email);
    await page.getByLabel(words.signIn('password'), { exact: true }).fill(operator.password);
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await expect(page.getByRole('alert').first()).toHaveText(words.signInError('SecondFactorRequired'));
    const nextStep = (Math.floor(enrolledAt / STEP_MS) + 1) * STEP_MS;
    if (Date.now() < nextStep) await page.waitForTimeout(nextStep - Date.now() + 200);
    await page.getByLabel(words.signIn('code')).fill(authenticatorCode(secret));
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await page.waitForURL(/\/operator$/);
    await page.goto('/operator/account');
    await expect(page.getByTestId('second-factor-state')).toContainText('10');

    // The phone lost with its codes: another operator resets the factor; the password alone signs in, and says so.
    const reason = `owner recognised by video call ${locale}`;
    expect(admin('account', 'reset-factor', '--email', operator.email, '--reason', reason)).toMatchObject({ email: operator.email });
    await page.reload();
    await expect(page).toHaveURL(/\/portal\/sign-in/);
    await page.goto('/portal/sign-in');
    await expect(page.getByRole('button', { name: words.signIn('submit') })).toBeEnabled();
    await page.getByLabel(words.signIn('email')).fill(operator.email);
    await page.getByLabel(words.signIn('password'), { exact: true }).fill(operator.password);
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    // In production, without an app again, the console is held at the account page until one is set up.
    await page.waitForURL(onStagingService ? /\/operator\/account\?secondFactor=required$/ : /\/operator$/);
    // Every console page says so from this sign-in on, with the way to the account page.
    await expect(page.getByTestId('second-factor-reset-notice').getByRole('link')).toHaveAttribute('href', '/operator/account');
    await page.goto('/operator/account');
    await expect(page.getByTestId('second-factor-reset')).toContainText(reason);
    await expect(page.getByRole('button', { name: words.factor('start') })).toBeVisible();
    await expectAxeClean(page, `operator account after a reset (${locale})`);
  });
}
