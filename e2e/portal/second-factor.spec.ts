import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { authenticatorCode } from '../../test/totp-code';
import { PASSWORD, signUp, uniqueEmail, withDatabase } from '../factories';
import { expectAxeClean } from '../axe-clean';

/**
 * Two-step sign-in as a merchant sets it up: the authenticator's secret read off the page (as a person types it into
 * the app), its codes computed here from RFC 6238, the recovery codes kept from the page that shows them once.
 */
test.describe.configure({ timeout: 300_000 });

const LOCALES = ['en', 'zh-CN'] as const;
const STEP_MS = 30_000;

function wordsOf(locale: string) {
  const portal = JSON.parse(readFileSync(`messages/${locale}/portal.json`, 'utf8'));
  const words = (catalogue: Record<string, string>) => (key: string) => catalogue[key] ?? `(no words for ${key})`;
  return { signIn: words(portal.signIn), signInError: words(portal.signIn.errors), factor: words(portal.account.secondFactor), stepUp: words(portal.stepUp) };
}

/** The sign-in form up to its second step: email and password, answered by the question for the code. */
async function signInToCodeStep(page: Page, words: ReturnType<typeof wordsOf>, email: string) {
  await page.context().clearCookies({ name: /next-auth/ });
  await page.goto('/portal/sign-in');
  await page.getByLabel(words.signIn('email')).fill(email);
  await page.getByLabel(words.signIn('password'), { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: words.signIn('submit') }).click();
  await expect(page.getByRole('alert').first()).toHaveText(words.signInError('SecondFactorRequired'));
  return page.getByLabel(words.signIn('code'));
}

async function auditActions(email: string): Promise<string[]> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ action: string }>("SELECT action FROM audit_log WHERE subject = (SELECT 'account:' || id FROM accounts WHERE email = $1) ORDER BY id", [email]);
    return rows.map((row) => row.action);
  });
}

for (const locale of LOCALES) {
  test(`two-step sign-in (${locale}): set up with the app's code, a recovery code used once, the app's next code, removal inside the sign-in's step-up window; axe clean`, async ({ page }, testInfo) => {
    const words = wordsOf(locale);
    const email = uniqueEmail(`factor-${testInfo.project.name}-${locale}`).toLowerCase();
    await signUp(page, { name: `Two-step shop ${locale}`, email });
    await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);

    await page.goto('/portal/account');
    await page.getByRole('button', { name: words.factor('start') }).click();
    const confirm = page.getByRole('form', { name: words.factor('confirmTitle') });
    await expect(confirm.getByRole('img', { name: words.factor('qrAlt') })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAxeClean(page, `enrolment (${locale})`);
    await confirm.getByLabel(words.factor('code')).fill('000000' === authenticatorCode(secret) ? '111111' : '000000');
    await confirm.getByRole('button', { name: words.factor('confirm') }).click();
    await expect(confirm.getByLabel(words.factor('code'))).toHaveAttribute('aria-invalid', 'true');
    const enrolledAt = Date.now();
    await confirm.getByLabel(words.factor('code')).fill(authenticatorCode(secret));
    await confirm.getByRole('button', { name: words.factor('confirm') }).click();
    const codes = page.getByRole('list', { name: words.factor('recoveryCodesTitle') }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCodes = await codes.allTextContents();
    await expectAxeClean(page, `recovery codes (${locale})`);

    // The password alone no longer signs in; a wrong code is refused on its field; a recovery code works once.
    let code = await signInToCodeStep(page, words, email);
    await code.fill('ZZZZZ-ZZZZZ');
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert').first()).toHaveText(words.signInError('SecondFactorInvalid'));
    await expectAxeClean(page, `sign-in, second step (${locale})`);
    await code.fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await page.waitForURL(/\/portal$/);

    code = await signInToCodeStep(page, words, email);
    await code.fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await expect(page.getByRole('alert').first()).toHaveText(words.signInError('SecondFactorInvalid'));
    // The app's code of a later step than the one the set-up used (that one is spent).
    const nextStep = (Math.floor(enrolledAt / STEP_MS) + 1) * STEP_MS;
    if (Date.now() < nextStep) await page.waitForTimeout(nextStep - Date.now() + 200);
    await code.fill(authenticatorCode(secret));
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await page.waitForURL(/\/portal$/);

    await page.goto('/portal/account');
    await expect(page.getByTestId('second-factor-state')).toContainText('9');
    // Removal is a sensitive action: this session answered the app's code at sign-in, so none is asked for 10 minutes.
    const removal = page.getByRole('form', { name: words.factor('removeTitle') });
    await expect(removal.getByTestId('step-up-fresh')).toHaveText(words.stepUp('fresh'));
    await removal.getByRole('button', { name: words.factor('remove') }).click();
    await page.waitForURL(/\/portal\/sign-in/);
    await page.getByLabel(words.signIn('email')).fill(email);
    await page.getByLabel(words.signIn('password'), { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await page.waitForURL(/\/portal$/);
    expect(await auditActions(email)).toEqual(expect.arrayContaining(['account.second_factor_enrol', 'account.recovery_code_use', 'account.second_factor_remove']));
  });
}
