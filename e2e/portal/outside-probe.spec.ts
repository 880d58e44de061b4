import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { admin, anOperator, onStagingService, PASSWORD, revealAppSecret, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { sign } from '../../lib/signing/sign';

/**
 * What an outside probe did with a browser and a portal session, replayed: the signature debugger as a signing oracle
 * (a session alone signing an order), and the sign-up form telling who has an account.
 */

/** The bodies of the server actions' answers the page receives from now on (read before the page goes on). */
async function actionAnswers(page: Page): Promise<string[]> {
  const answers: string[] = [];
  await page.route('**/*', async (route) => {
    if (route.request().method() !== 'POST' || !route.request().headers()['next-action']) return route.continue();
    const response = await route.fetch();
    answers.push(await response.text());
    return route.fulfill({ response });
  });
  return answers;
}

test('the signature debugger never gives out a signature the service would accept', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const appId = await signUp(page, { name: 'Oracle shop', email: uniqueEmail(`oracle-${testInfo.project.name}`) });
  admin('merchant', 'orders', 'on', '--app-id', appId);
  const secret = await revealAppSecret(page);
  const answers = await actionAnswers(page);

  await page.goto('/portal/signature');
  await expect(page.getByRole('button', { name: 'Check signature' })).toBeEnabled();
  const order = { appId, merchantOrderNo: `ORACLE-${Date.now()}`, pay_usdt: '1.00', chainType: '1', notifyUrl: 'https://merchant.example/notify' };
  const valid = sign(order, secret);
  // The probe's bodies: none signed, a wrong signature, a signature made the wrong way (empty fields included).
  for (const signature of [undefined, '0'.repeat(32), sign({ ...order, attach: '' }, `${secret}x`)]) {
    await page.getByLabel('Request body').fill(JSON.stringify({ ...order, signature }));
    await page.getByRole('button', { name: 'Check signature' }).click();
    await expect(page.getByTestId('signature-result')).toContainText(signature ? 'The signature does not match' : 'No signature in the body');
    await expect(page.getByTestId('signed-text')).toHaveText(`appId=${appId}&chainType=1&merchantOrderNo=${order.merchantOrderNo}&notifyUrl=https://merchant.example/notify&pay_usdt=1.00&appsecret=<AppSecret>`);
    await expect(page.getByText('Expected signature')).toHaveCount(0);
  }
  await expect.poll(() => answers.length).toBeGreaterThanOrEqual(3);
  const seen = [await page.content(), ...answers].join('\n').toUpperCase();
  expect(seen).not.toContain(valid);

  // What a session alone could try: every signature-shaped text the page showed, on the open API.
  const candidates = new Set(seen.match(/\b[0-9A-F]{32}\b/g) ?? []);
  for (const candidate of candidates) {
    const answer = await (await request.post('/v1/api/open/order/submit', { data: { ...order, signature: candidate } })).json();
    expect(answer.code, candidate).toBe(1002);
  }
  // The merchant's own correctly signed body still checks out.
  await page.getByLabel('Request body').fill(JSON.stringify(signed(order, secret)));
  await page.getByRole('button', { name: 'Check signature' }).click();
  await expect(page.getByTestId('signature-result')).toContainText('The signature matches');
});

/** A sign-up in a fresh browser: what the page shows afterwards, and the action's answer. */
async function signUpAs(browser: Browser, testInfo: TestInfo, email: string, password: string): Promise<{ url: string; shown: string; answers: string[] }> {
  const context = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
  const page = await context.newPage();
  try {
    const answers = await actionAnswers(page);
    await page.goto('/portal/sign-up');
    await expect(page.getByRole('button', { name: 'Create account' })).toBeEnabled();
    await page.getByLabel('Business name').fill('Probe shop');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => answers.length).toBe(1);
    // Where the answer took the person: a page with a notice, one with an error, or straight into the portal.
    await Promise.race([page.locator('main').getByRole('status').waitFor(), page.locator('main').getByRole('alert').first().waitFor(), page.waitForURL('**/portal/keys')]);
    return { url: new URL(page.url()).pathname + new URL(page.url()).search, shown: (await page.locator('main').innerText()).trim(), answers };
  } finally {
    await context.close();
  }
}

test('sign-up answers alike for a new email, a merchant’s and an operator’s, and changes neither account', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const merchantEmail = uniqueEmail(`known-${testInfo.project.name}`);
  const operator = anOperator(`signup-${testInfo.project.name}`);
  const intruderPassword = 'an intruder password';

  const fresh = await signUpAs(browser, testInfo, merchantEmail, PASSWORD); // a new email: its account is made
  const merchant = await signUpAs(browser, testInfo, merchantEmail.toUpperCase(), intruderPassword);
  const ops = await signUpAs(browser, testInfo, operator.email, intruderPassword);
  for (const known of [merchant, ops]) {
    expect(known.url).toBe(fresh.url);
    expect(known.shown).toBe(fresh.shown);
    expect(known.answers).toEqual(fresh.answers);
  }
  expect(fresh.shown).not.toMatch(/already has an account|already registered/i);

  // The accounts are as they were: their own passwords sign in, the intruder's does not.
  const signIn = async (email: string, password: string) => {
    const context = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
    const other = await context.newPage();
    await other.goto('/portal/sign-in');
    await expect(other.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password').fill(password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    const outcome = await Promise.race([
      other.waitForURL(/\/(portal|operator|operator\/account\?secondFactor=required)$/).then(() => new URL(other.url()).pathname),
      other.getByRole('alert').filter({ hasText: 'Email or password is not correct' }).waitFor().then(() => 'refused'),
    ]);
    await context.close();
    return outcome;
  };
  expect(await signIn(merchantEmail, intruderPassword)).toBe('refused');
  expect(await signIn(operator.email, intruderPassword)).toBe('refused');
  expect(await signIn(merchantEmail, PASSWORD)).toBe('/portal');
  // (The staging service, a production build, sends an operator without an authenticator app to set one up.)
  expect(await signIn(operator.email, operator.password)).toBe(onStagingService ? '/operator/account' : '/operator');
});
