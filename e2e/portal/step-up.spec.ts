import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { admin, nextOperatorCode, PASSWORD, signUp, uniqueEmail, withDatabase, type OperatorAccount } from '../factories';
import { expectAxeClean } from '../axe-clean';
import { postServerAction, serverActionsUnder } from '../server-actions';

/**
 * The step-up before a sensitive action, as a merchant with an authenticator app meets it on the keys page: the app's
 * code instead of the password (a wrong one, the password and a replayed code refused on the field, counted), then 10
 * minutes without asking; past them (the session's last answer moved back in the database), the code again, both in
 * the page and for a forged post of the reveal action with the member's own session; the same for inviting a member,
 * adding an upstream credential and the close notices. After an operator's reset of the app, every page says so until
 * a new one is set up. In both languages, axe clean.
 */
test.describe.configure({ timeout: 240_000 });

const LOCALES = ['en', 'zh-CN'] as const;

function wordsOf(locale: string) {
  const read = (area: string) => JSON.parse(readFileSync(`messages/${locale}/${area}.json`, 'utf8'));
  const portal = read('portal');
  const domain = read('domain');
  return {
    factor: (key: string) => portal.account.secondFactor[key] as string,
    stepUp: (key: string) => portal.stepUp[key] as string,
    keys: (key: string) => portal.keys[key] as string,
    team: (key: string) => portal.team.invite[key] as string,
    closeNotices: (key: string) => portal.account.closeNotices[key] as string,
    signIn: (key: string) => portal.signIn[key] as string,
    domain: (key: string) => domain.accounts[key] as string,
  };
}

/** Sets up the app on the account page as the merchant does; returns the person with the app's secret. */
async function setUpApp(page: Page, words: ReturnType<typeof wordsOf>, email: string): Promise<OperatorAccount & { lastCode: string }> {
  await page.goto('/portal/account');
  await page.getByRole('button', { name: words.factor('start') }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  const person: OperatorAccount = { email, password: PASSWORD, authenticator: { secret, lastStep: 0 } };
  const code = await nextOperatorCode(person);
  const confirm = page.getByRole('form', { name: words.factor('confirmTitle') });
  await confirm.getByLabel(words.factor('code')).fill(code);
  await confirm.getByRole('button', { name: words.factor('confirm') }).click();
  await expect(page.getByRole('list', { name: words.factor('recoveryCodesTitle') }).getByRole('listitem')).toHaveCount(10);
  return { ...person, lastCode: code };
}

/** Moves the last second-factor answer of the account's sessions 11 minutes back: the window has passed. */
async function letTheWindowPass(email: string): Promise<void> {
  await withDatabase((client) =>
    client.query("UPDATE account_sessions SET second_factor_at = now() - interval '11 minutes' WHERE second_factor_at IS NOT NULL AND account_id = (SELECT id FROM accounts WHERE email = $1)", [email]),
  );
}

for (const locale of LOCALES) {
  test(`a sensitive action asks the app's code, then not for 10 minutes, then again (${locale}); axe clean`, async ({ page }, testInfo) => {
    const words = wordsOf(locale);
    const email = uniqueEmail(`step-up-${testInfo.project.name}-${locale}`).toLowerCase();
    await signUp(page, { name: `Step-up shop ${locale}`, email });
    await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);
    const person = await setUpApp(page, words, email);

    // This session signed in before the app: the reveal asks for its code, not the password.
    await page.goto('/portal/keys');
    const reveal = page.locator('form').filter({ has: page.getByRole('button', { name: words.keys('reveal') }) });
    const code = reveal.getByLabel(words.stepUp('code'));
    await expect(code).toBeVisible();
    await expect(reveal.locator('input[type=password]')).toHaveCount(0);
    await expectAxeClean(page, `keys page, step-up asked (${locale})`);
    for (const wrong of [PASSWORD, person.lastCode, '12345']) {
      await code.fill(wrong);
      await reveal.getByRole('button', { name: words.keys('reveal') }).click();
      await expect(code).toHaveAttribute('aria-invalid', 'true');
      await expect(reveal.getByRole('alert').first()).toHaveText(words.domain('secondFactorWrong'));
    }
    await expect(page.getByTestId('app-secret')).toHaveCount(0);
    await code.fill(await nextOperatorCode(person));
    await reveal.getByRole('button', { name: words.keys('reveal') }).click();
    const firstSecret = (await page.getByTestId('app-secret').textContent())!.trim();
    expect(firstSecret.length).toBeGreaterThan(20);

    // Inside the window nothing is asked: the page says so, and the rotation runs with its confirmation alone.
    await page.reload();
    await expect(page.getByTestId('step-up-fresh').first()).toHaveText(words.stepUp('fresh'));
    await expectAxeClean(page, `keys page, inside the window (${locale})`);
    const rotate = page.locator('form').filter({ has: page.getByRole('button', { name: words.keys('rotate') }) });
    await rotate.locator('input[name=confirmed]').check();
    await rotate.getByRole('button', { name: words.keys('rotate') }).click();
    const rotatedSecret = (await page.getByTestId('app-secret').textContent())!.trim();
    expect(rotatedSecret).not.toBe(firstSecret);

    // Past the window: the page as it stands says nothing is needed, but the server asks again, and the field appears.
    await page.getByRole('button', { name: words.keys('hide') }).click();
    await letTheWindowPass(email);
    const revealAgain = page.locator('form').filter({ has: page.getByRole('button', { name: words.keys('reveal') }) });
    await revealAgain.getByRole('button', { name: words.keys('reveal') }).click();
    await expect(revealAgain.getByRole('alert').first()).toHaveText(words.domain('stepUpCodeMissing'));
    await expect(page.getByTestId('app-secret')).toHaveCount(0);

    // The same refusal for the reveal action posted as the browser would, with this session and no code.
    const revealAction = serverActionsUnder('app/portal/(merchant)/').get('revealSecretAction')!;
    const forged = await postServerAction(page.request, revealAction, [''], baseURL);
    expect(await forged.text()).not.toContain('"ok":true');

    await revealAgain.getByLabel(words.stepUp('code')).fill(await nextOperatorCode(person));
    await revealAgain.getByRole('button', { name: words.keys('reveal') }).click();
    await expect(page.getByTestId('app-secret')).toHaveText(rotatedSecret);
    // And now, inside the new window, the same post with no code is answered.
    const allowed = await postServerAction(page.request, revealAction, [''], baseURL);
    expect(await allowed.text()).toContain(rotatedSecret);

    // Inviting a member and adding an upstream credential ask it too (of an account with an app only).
    await page.goto('/portal/team');
    const invite = page.getByRole('form', { name: words.team('heading') });
    await expect(invite.getByTestId('step-up-fresh')).toBeVisible();
    await invite.getByLabel(words.team('email')).fill(uniqueEmail(`step-up-invitee-${locale}`));
    await invite.getByRole('button', { name: words.team('submit') }).click();
    await expect(page.getByTestId('invitation-created')).toBeVisible();
    await page.goto('/portal/credentials');
    await expect(page.getByTestId('step-up-fresh').first()).toBeVisible();
    const submitCredential = serverActionsUnder('app/portal/(merchant)/').get('submitCredentialAction')!;
    const withinWindow = await postServerAction(page.request, submitCredential, [{ channel: 'ALIPAY', password: '' }], baseURL);
    expect(await withinWindow.text()).not.toContain(words.domain('stepUpCodeMissing'));

    await letTheWindowPass(email);
    const pastWindow = await postServerAction(page.request, submitCredential, [{ channel: 'ALIPAY', password: '' }], baseURL);
    expect(await pastWindow.text()).toContain(words.domain('stepUpCodeMissing'));
    await page.goto('/portal/team');
    const inviteAgain = page.getByRole('form', { name: words.team('heading') });
    const invitee = uniqueEmail(`step-up-second-${locale}`).toLowerCase();
    await inviteAgain.getByLabel(words.team('email')).fill(invitee);
    await inviteAgain.getByLabel(words.stepUp('code')).fill('000000' === person.lastCode ? '111111' : '000000');
    await inviteAgain.getByRole('button', { name: words.team('submit') }).click();
    await expect(inviteAgain.getByLabel(words.stepUp('code'))).toHaveAttribute('aria-invalid', 'true');
    await expectAxeClean(page, `team page, the step-up's code refused (${locale})`);
    expect(await withDatabase(async (client) => (await client.query('SELECT 1 FROM team_invitations WHERE email = $1', [invitee])).rowCount)).toBe(0);
    await inviteAgain.getByLabel(words.stepUp('code')).fill(await nextOperatorCode(person));
    await inviteAgain.getByRole('button', { name: words.team('submit') }).click();
    await expect(page.getByTestId('invitation-created')).toContainText(invitee);

    // The close notices (a notify setting): nothing asked inside the window; past it, the code, and nothing saved without it.
    await page.goto('/portal/account');
    const notices = page.locator('form', { has: page.locator('input[name=closeNotices]') });
    await expect(notices.getByTestId('step-up-fresh')).toHaveText(words.stepUp('fresh'));
    await letTheWindowPass(email);
    await notices.locator('input[name=closeNotices]').check();
    await notices.getByRole('button', { name: words.closeNotices('submit') }).click();
    await expect(notices.getByLabel(words.stepUp('code'))).toHaveAttribute('aria-invalid', 'true');
    expect(await withDatabase(async (client) => (await client.query('SELECT close_notices FROM merchants m JOIN accounts a ON a.merchant_id = m.id WHERE a.email = $1', [email])).rows[0].close_notices)).toBe(false);

    // The phone lost: an operator resets the app; from the next sign-in every page says so, until a new app is set up.
    admin('account', 'reset-factor', '--email', email, '--reason', `lost phone ${locale}`);
    await page.goto('/portal/sign-in');
    await page.getByLabel(words.signIn('email')).fill(email);
    await page.getByLabel(words.signIn('password'), { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: words.signIn('submit') }).click();
    await page.waitForURL(/\/portal$/);
    const notice = page.getByTestId('second-factor-reset-notice');
    await expect(notice.getByRole('link')).toHaveAttribute('href', '/portal/account');
    await expectAxeClean(page, `overview after a reset (${locale})`);
    await setUpApp(page, words, email);
    await page.goto('/portal');
    await expect(notice).toHaveCount(0);
  });
}
