import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import pg from 'pg';
import { ensureEmbeddedServer } from '../../lib/db/embedded-server';

/** An operator account made the way an operator makes one: `npm run admin -- operator add`, the password in the environment. */
export function anOperator(label: string): { email: string; password: string } {
  const email = `ops-${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `operator ${randomBytes(6).toString('hex')}`;
  const output = execFileSync('npx', ['tsx', 'scripts/admin.ts', 'operator', 'add', '--email', email, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg', OPERATOR_PASSWORD: password },
  });
  expect(JSON.parse(output)).toMatchObject({ email, role: 'operator' });
  return { email, password };
}

/** Signs in on the shared sign-in page; an operator lands on the console. */
export async function signInAsOperator(page: Page, operator: { email: string; password: string }): Promise<void> {
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/operator$/, { timeout: 60_000 });
  await expect(page.getByTestId('operator-email')).toHaveText(operator.email);
}

/** The running service's database (the e2e embedded server, or DATABASE_URL), to seed and to check what changed. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  let url = process.env.DATABASE_URL;
  if (!url) {
    process.env.EMBEDDED_PG_DIR = process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg';
    url = (await ensureEmbeddedServer({ owner: false })).databaseUrl;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A second browser (another person) with the same device settings as the test's project. */
export function anotherBrowser(browser: Browser, testInfo: TestInfo): Promise<BrowserContext> {
  const use = testInfo.project.use;
  return browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    userAgent: use.userAgent,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
  });
}
