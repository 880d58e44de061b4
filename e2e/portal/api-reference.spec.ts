import { expect, test } from '@playwright/test';
import { PASSWORD, signUp, uniqueEmail } from '../factories';
import { signed } from '../../test/beds/contract-signer';

test('API reference: examples with the merchant AppID and a placeholder secret, copyable; probes and the OpenAPI document', async ({ page, context, request }, testInfo) => {
  test.setTimeout(180_000); // first visits compile each page in development mode
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  // Signed-in merchants only.
  await page.goto('/portal/api');
  await page.waitForURL('**/portal/sign-in**');

  const appId = await signUp(page, { name: `API ref ${testInfo.project.name}`, email: uniqueEmail(`apiref-${testInfo.project.name}`) });
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await revealForm.getByLabel('Password').fill(PASSWORD);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  const secret = (await page.getByTestId('app-secret').textContent())!.trim();

  // Reached from the portal nav.
  await page.getByRole('link', { name: 'API reference' }).click();
  await page.waitForURL('**/portal/api');
  await expect(page.getByRole('heading', { name: 'API reference' })).toBeVisible();
  await expect(page.getByTestId('api-app-id')).toHaveText(appId);
  await expect(page.getByTestId('secret-placeholder')).toHaveText('YOUR_APP_SECRET');
  expect(await page.content()).not.toContain(secret);

  for (const operation of ['submit', 'query', 'notification']) {
    for (const language of ['curl', 'typescript', 'php', 'python', 'java']) {
      await expect(page.getByTestId(`copy-${operation}-${language}`)).toHaveCount(1);
    }
  }

  // The example programs CI runs, one tab per language, with the merchant's AppID and never the secret; arrow keys
  // move between the tabs, and the copy button copies exactly the program shown.
  const languages = ['php', 'java', 'python', 'go', 'node'];
  await expect(page.getByRole('tablist', { name: 'Example language' }).getByRole('tab')).toHaveText(['PHP', 'Java', 'Python', 'Go', 'Node']);
  await expect(page.getByTestId('program-php')).toBeVisible();
  await expect(page.getByTestId('program-code-php')).toContainText(`'${appId}'`);
  await page.getByTestId('program-tab-php').focus();
  for (const language of languages.slice(1)) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId(`program-tab-${language}`)).toBeFocused();
    await expect(page.getByTestId(`program-tab-${language}`)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId(`program-${language}`)).toBeVisible();
    await expect(page.getByTestId(`program-code-${language}`)).toContainText(appId);
    await expect(page.getByTestId(`program-code-${language}`)).toContainText('APP_SECRET');
  }
  await page.getByRole('tab', { name: 'Go' }).click();
  await expect(page.getByTestId('program-node')).toBeHidden();
  const goProgram = (await page.getByTestId('program-code-go').textContent())!;
  expect(goProgram).toContain('func sign(fields map[string]string, secret string) string');
  await page.getByTestId('copy-program-go').click();
  await expect(page.getByTestId('copy-program-go')).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(goProgram);

  // One signed example per channel: submit and query as JSON, the notification as a form, each signed by the
  // contract with the placeholder secret and carrying the merchant's AppID.
  for (const channel of ['USDT', 'ALIPAY', 'WECHAT', 'YHT']) {
    const id = channel.toLowerCase();
    const submit = JSON.parse((await page.getByTestId(`submit-body-${id}`).textContent())!) as Record<string, string>;
    expect(submit, channel).toMatchObject({ appId, payType: channel });
    const { signature, ...unsigned } = submit;
    expect(signature, `${channel} submit signature`).toBe(signed(unsigned, 'YOUR_APP_SECRET').signature);
    const query = JSON.parse((await page.getByTestId(`query-body-${id}`).textContent())!) as Record<string, string>;
    expect(query.merchantOrderNo, `${channel} query`).toBe(submit.merchantOrderNo);
    const notification = Object.fromEntries(new URLSearchParams((await page.getByTestId(`notification-body-${id}`).textContent())!.replace(/\n/g, '')));
    expect(notification, `${channel} notification`).toMatchObject({ appId, payType: channel, merchantOrderNo: submit.merchantOrderNo, status: 'PAID' });
    const { signature: notificationSignature, ...notificationFields } = notification;
    expect(notificationSignature, `${channel} notification signature`).toBe(signed(notificationFields, 'YOUR_APP_SECRET').signature);
  }

  // Copy the TypeScript submit example: the clipboard holds exactly the code shown.
  const block = page.getByTestId('example-submit-typescript');
  await block.locator('summary').click();
  const shown = (await block.locator('pre').textContent())!;
  expect(shown).toContain(appId);
  expect(shown).toContain('YOUR_APP_SECRET');
  await page.getByTestId('copy-submit-typescript').click();
  await expect(page.getByTestId('copy-submit-typescript')).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  // The machine-readable side, on the service as started by `npm run dev`.
  const document = await (await request.get('/v1/api/open/openapi.json')).json();
  expect(document.openapi).toBe('3.1.0');
  expect(await (await request.get('/healthz')).json()).toEqual({ status: 'ok' });
  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(200);
});
