import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'e2e portal password 1';

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Signs up through the form; the form signs in and lands on the interface keys page. Returns the AppID. */
export async function signUp(page: Page, input: { name: string; email: string; password?: string }): Promise<string> {
  await page.goto('/portal/sign-up');
  await page.getByLabel('Business name').fill(input.name);
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password · 密码', { exact: true }).fill(input.password ?? PASSWORD);
  await page.getByLabel('Confirm password').fill(input.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/portal/keys');
  const appId = (await page.getByTestId('app-id').textContent())!.trim();
  expect(appId).toMatch(/^mch_/);
  return appId;
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/portal$/);
}

/** Signs in over plain HTTP through next-auth's credentials endpoint; the request context then carries the session cookie. */
export async function signInOverHttp(request: APIRequestContext, email: string, password = PASSWORD): Promise<void> {
  const { csrfToken } = await (await request.get('/api/auth/csrf')).json();
  const response = await request.post('/api/auth/callback/credentials', { form: { csrfToken, email, password, json: 'true' } });
  expect(response.ok()).toBe(true);
  const session = await (await request.get('/api/auth/session')).json();
  expect(session.user.email).toBe(email);
}
