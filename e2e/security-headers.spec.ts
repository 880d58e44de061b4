import { expect, test } from '@playwright/test';

/** Every kind of page (sign-in, console, checkout's error page, sandbox) carries the headers, and still works under its CSP. */
test('pages carry the security headers and run under their CSP', async ({ page, request }) => {
  test.setTimeout(180_000); // first visits compile each page in development mode
  for (const path of ['/', '/portal/sign-in', '/operator', '/pay/not-a-token']) {
    const response = await request.get(path, { maxRedirects: 0 });
    const headers = response.headers();
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
  }

  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: /sign in/i }).click();
  // The client-side form ran (hydrated) under the CSP. (Next.js's route announcer is an alert too, empty.)
  await expect(page.locator('form').getByRole('alert')).toBeVisible();
  expect(violations).toEqual([]);
});
