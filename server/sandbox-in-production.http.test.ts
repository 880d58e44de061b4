import { randomBytes } from 'node:crypto';
import { portalSessionToken } from '../test/portal-session-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tronSandboxRoute from '../app/sandbox/tron/[...path]/route';
import { createAccount } from '../lib/accounts/accounts';
import { portalAuthSecret } from '../lib/accounts/auth-secret';
import { chainConfig } from '../lib/channels/usdt/chain/chain-config';
import { getDb } from '../lib/db/client';
import { aTronAddress } from '../test/factories';
import { withAuthenticatorApp } from '../test/operator-authenticator';
import { serveWebHandler } from '../test/web-handler-server';

/** The sandbox mounted in production (SANDBOX_ENABLED=true) on a staging service: loud, never a silent default. */
const saved = {
  NODE_ENV: process.env.NODE_ENV,
  SANDBOX_ENABLED: process.env.SANDBOX_ENABLED,
  TRONGRID_BASE_URL: process.env.TRONGRID_BASE_URL,
  TRONGRID_BASE_URLS: process.env.TRONGRID_BASE_URLS,
  TRONGRID_API_KEY: process.env.TRONGRID_API_KEY,
};
let wallet: Awaited<ReturnType<typeof serveWebHandler>>;

beforeAll(async () => {
  wallet = await serveWebHandler((request, path) => tronSandboxRoute.POST(request, { params: Promise.resolve({ path }) }), '/sandbox/tron');
  (process.env as Record<string, string>).NODE_ENV = 'production';
  process.env.SANDBOX_ENABLED = 'true';
  delete process.env.TRONGRID_BASE_URL;
  delete process.env.TRONGRID_BASE_URLS;
  delete process.env.TRONGRID_API_KEY;
});
afterAll(async () => {
  await wallet.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else (process.env as Record<string, string>)[name] = value;
  }
});

/** An operator's session cookie; in production only an operator with an authenticator app is one (`withApp`). */
async function operatorCookie(options: { withApp: boolean }): Promise<string> {
  const account = await createAccount(getDb(), { email: `op-${randomBytes(4).toString('hex')}@example.com`, password: 'a good long password', role: 'operator' });
  if (options.withApp) await withAuthenticatorApp(getDb(), account.id);
  return `next-auth.session-token=${await portalSessionToken(getDb(), { id: account.id, role: 'operator' }, portalAuthSecret())}`;
}

function transfer(headers: Record<string, string> = {}) {
  return fetch(`${wallet.url}/transfer`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ to: aTronAddress(), amount: '10' }) });
}

describe('the sandbox in production', () => {
  it('the chain watcher reads TronGrid unless TRONGRID_BASE_URLS names the sandbox', () => {
    expect(chainConfig({ ...process.env, TRONGRID_API_KEY: 'a-key' }).baseUrls).toEqual(['https://api.trongrid.io']);
    // Without a key production refuses TronGrid; it never falls back to the sandbox ledger instead.
    expect(() => chainConfig()).toThrow(/TRONGRID_API_KEY is required in production/);
  });

  it('an anonymous sandbox transfer is refused (401), and so is an operator who has not set up two-step sign-in; an operator with it may send one', async () => {
    const anonymous = await transfer();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toMatch(/operator session/);
    const withoutApp = await transfer({ cookie: await operatorCookie({ withApp: false }) });
    expect(withoutApp.status).toBe(401);
    const operator = await transfer({ cookie: await operatorCookie({ withApp: true }) });
    expect(operator.status).toBe(200);
    expect(await operator.json()).toMatchObject({ transactionId: expect.any(String) });
  });
});
