import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { PASSWORD, signUp, uniqueEmail, withDatabase } from '../factories';
import { expectAxeClean } from '../axe-clean';

/**
 * The owner's sessions as the account page shows them: this browser and a second device (a phone on another
 * browser), one ended from the list, all the others ended at once, and this one signed out from it. Each ended
 * session's next page is the sign-in page; sign-out in one browser leaves the others signed in.
 */
test.describe.configure({ timeout: 300_000 });

const LOCALES = ['en', 'zh-CN'] as const;
const PHONE_FIREFOX = 'Mozilla/5.0 (Android 14; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0';

function wordsOf(locale: string) {
  const portal = JSON.parse(readFileSync(`messages/${locale}/portal.json`, 'utf8'));
  const sessions = portal.account.sessions as Record<string, string>;
  const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
  return {
    sessions: (key: string, values: Record<string, string> = {}) => fill(sessions[key]!, values),
    signIn: (key: string) => portal.signIn[key] as string,
    signOut: JSON.parse(readFileSync(`messages/${locale}/common.json`, 'utf8')).nav.signOut as string,
    /** The one-session form of an ICU plural message (`one {…}`, or Chinese's only `other {…}`), # as 1. */
    endedOne: () => (/one \{([^}]*)\}/.exec(sessions.ended!) ?? /other \{([^}]*)\}/.exec(sessions.ended!))![1]!.replace('#', '1'),
  };
}

async function withLocale(context: BrowserContext, locale: string) {
  await context.addCookies([{ name: 'NEXT_LOCALE', value: locale, url: test.info().project.use.baseURL! }]);
}

async function signInAt(page: Page, words: ReturnType<typeof wordsOf>, email: string) {
  await page.goto('/portal/sign-in');
  await page.getByLabel(words.signIn('email')).fill(email);
  await page.getByLabel(words.signIn('password'), { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: words.signIn('submit') }).click();
  await page.waitForURL(/\/portal$/);
}

/** Whether a browser's session still opens the portal: an ended one is sent to sign-in. */
async function stillSignedIn(page: Page): Promise<boolean> {
  await page.goto('/portal/account');
  return !/\/portal\/sign-in/.test(page.url());
}

const liveSessionsOf = (email: string) =>
  withDatabase(async (client) => {
    const { rows } = await client.query<{ count: string }>(
      'SELECT count(*) FROM account_sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = $1 AND s.ended_at IS NULL AND s.session_version = a.session_version',
      [email],
    );
    return Number(rows[0]!.count);
  });

for (const locale of LOCALES) {
  test(`sessions (${locale}): the second device listed, ended from the list, all others ended, this one signed out; axe clean`, async ({ page, browser }, testInfo) => {
    const words = wordsOf(locale);
    const email = uniqueEmail(`sessions-${testInfo.project.name}-${locale}`).toLowerCase();
    await signUp(page, { name: `Sessions shop ${locale}`, email });
    await withLocale(page.context(), locale);

    const phone = await browser.newContext({ baseURL: testInfo.project.use.baseURL, userAgent: PHONE_FIREFOX, viewport: { width: 390, height: 844 } });
    await withLocale(phone, locale);
    const phonePage = await phone.newPage();
    await signInAt(phonePage, words, email);

    await page.goto('/portal/account');
    const section = page.getByTestId('account-sessions');
    await expect(section.getByRole('heading', { name: words.sessions('heading') })).toBeVisible();
    await expect(section.getByTestId('session-current')).toContainText(words.sessions('thisSession'));
    const phoneDevice = words.sessions('deviceOn', { browser: 'Firefox', system: 'Android' });
    const other = section.getByTestId('session-other');
    await expect(other).toHaveCount(1);
    await expect(other).toContainText(phoneDevice);
    await expect(other).toContainText('127.0.0.0/24');
    await expectAxeClean(page, `account sessions (${locale})`);

    // The phone's session, ended from the list: its next page is the sign-in page.
    await other.getByRole('button', { name: words.sessions('endLabel', { device: phoneDevice, network: '127.0.0.0/24' }) }).click();
    await expect(section.getByRole('status')).toHaveText(words.endedOne());
    await expect(section.getByTestId('session-other')).toHaveCount(0);
    expect(await stillSignedIn(phonePage)).toBe(false);

    // Signed in on the phone again, then every session but this one ended at once.
    await signInAt(phonePage, words, email);
    await page.reload();
    await expect(section.getByTestId('session-other')).toHaveCount(1);
    await section.getByRole('button', { name: words.sessions('endOthers') }).click();
    await expect(section.getByRole('status')).toHaveText(words.endedOne());
    expect(await stillSignedIn(phonePage)).toBe(false);
    expect(await stillSignedIn(page)).toBe(true);

    // Sign-out on the phone ends the phone's session only.
    await signInAt(phonePage, words, email);
    expect(await liveSessionsOf(email)).toBe(2);
    await phonePage.getByRole('button', { name: words.signOut }).click();
    await phonePage.waitForURL('**/portal/sign-in');
    expect(await liveSessionsOf(email)).toBe(1);
    expect(await stillSignedIn(page)).toBe(true);

    // This browser's own session, ended from the list: signed out, and its old cookie opens nothing.
    const kept = await page.context().cookies();
    await page.goto('/portal/account');
    await section.getByTestId('session-current').getByRole('button', { name: words.sessions('endThisLabel') }).click();
    await page.waitForURL('**/portal/sign-in');
    await page.context().addCookies(kept);
    expect(await stillSignedIn(page)).toBe(false);
    expect(await liveSessionsOf(email)).toBe(0);

    const audit = await withDatabase(async (client) => {
      const { rows } = await client.query<{ after: { sessions: number } }>(
        "SELECT after FROM audit_log WHERE action = 'account.sessions_end' AND subject = (SELECT 'account:' || id FROM accounts WHERE email = $1) ORDER BY id",
        [email],
      );
      return rows.map((row) => row.after.sessions);
    });
    expect(audit).toEqual([1, 1, 1]);
    await phone.close();
  });
}
