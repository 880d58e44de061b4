import { expect, request as playwrightRequest, test } from '@playwright/test';
import { anOperator, signInAsOperator } from '../factories';

/** Sign-out ends the session on the server: the cookie it replaced, replayed by someone who kept it, opens nothing. */
test('after sign-out the old session cookie no longer opens the console', async ({ page, context, baseURL }) => {
  test.setTimeout(180_000); // first visits compile each page in development mode
  const operator = anOperator('sign-out');
  await signInAsOperator(page, operator);
  const kept = await context.storageState();

  const replay = await playwrightRequest.newContext({ baseURL, storageState: kept });
  try {
    const before = await replay.get('/operator', { maxRedirects: 0 });
    expect(before.status()).toBe(200); // the kept cookie works while the session lives (so the check below can fail)

    await page.getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL('**/portal/sign-in');

    const after = await replay.get('/operator', { maxRedirects: 0 });
    expect(after.status()).toBeGreaterThanOrEqual(300);
    expect(after.status()).toBeLessThan(400);
    expect(after.headers()['location']).toContain('/portal/sign-in');
  } finally {
    await replay.dispose();
  }
  // Signing in again works (a new session).
  await signInAsOperator(page, operator);
});
