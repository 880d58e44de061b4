import { randomBytes } from 'node:crypto';
import { portalSessionToken } from '../../test/portal-session-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../accounts/accounts';
import { portalAuthSecret } from '../accounts/auth-secret';
import { systemClock } from '../clock';
import { closeDb, getDb } from '../db/client';
import { runJobExclusively } from '../jobs/periodic-job';
import { startTestAppForMonitor } from '../../test/open-api-client';
import { livenessWithDetails } from './health-replies';

let app: Awaited<ReturnType<typeof startTestAppForMonitor>>;
let monitor: Record<string, string>;

beforeAll(async () => {
  app = await startTestAppForMonitor();
  monitor = app.monitor;
});
afterAll(() => app.close());

async function get(path: string, headers: Record<string, string> = monitor) {
  const response = await fetch(`${app.baseUrl}${path}`, { headers });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/** The portal's session cookie for an account, as next-auth issues it after sign-in. */
async function sessionCookie(role: 'operator' | 'merchant', sessionVersion = 0): Promise<Record<string, string>> {
  const account = await createAccount(getDb(), { email: `${role}-${randomBytes(4).toString('hex')}@example.com`, password: 'a good long password', role });
  const token = await portalSessionToken(getDb(), { id: account.id, role, sessionVersion }, portalAuthSecret());
  return { cookie: `next-auth.session-token=${token}` };
}

describe('who may read /healthz?details', () => {
  it('refuses anyone without an operator session or the monitor token (401), and plain liveness stays open', async () => {
    const anonymous = await get('/healthz?details', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ status: 'ok', error: expect.stringMatching(/operator session or Authorization: Bearer <HEALTH_DETAILS_TOKEN>/) });
    expect((await get('/healthz?details', { authorization: 'Bearer not-the-token-not-the-token-not-the' })).status).toBe(401);
    expect((await get('/healthz?details', await sessionCookie('merchant'))).status).toBe(401);
    expect((await get('/healthz?details', await sessionCookie('operator', 7))).status).toBe(401); // a session that was ended
    expect((await get('/healthz?details', { cookie: 'next-auth.session-token=forged' })).status).toBe(401);
    expect(await get('/healthz', {})).toEqual({ status: 200, json: { status: 'ok' } });
  });

  it('answers an operator session and the monitor token', async () => {
    const operator = await get('/healthz?details', await sessionCookie('operator'));
    expect(operator.status).toBe(200);
    expect(operator.json.details.notifications).toBeDefined();
    expect((await get('/healthz?details')).json.details.notifications).toBeDefined();
  });
});

describe('GET /healthz?details', () => {
  it('adds the health figures: chain cursor and lag, notification queue, every known job (null: never run)', async () => {
    await runJobExclusively({ name: 'yht-poller', intervalMs: 1000, run: async () => undefined }, { db: getDb(), clock: systemClock, log: () => undefined });
    const answer = await get('/healthz?details');
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('ok');
    expect(answer.json.details.chain).toEqual({ cursorAt: null, lagMs: null });
    expect(answer.json.details.notifications).toEqual({ pending: 0, dueNow: 0, oldestDueAt: null, failed: 0 });
    expect(answer.json.details.jobs['alipay-poller']).toEqual({ lastRunAt: null });
    expect(answer.json.details.jobs['wechat-poller']).toEqual({ lastRunAt: null });
    expect(answer.json.details.jobs['yht-poller']).toMatchObject({ outcome: 'ok', lastError: null, lastRunAt: expect.stringMatching(/^\d{4}-/) });
    expect(await get('/healthz')).toEqual({ status: 200, json: { status: 'ok' } }); // plain liveness stays as it was
  });

  it('stays 200 (liveness) when the figures cannot be read, saying why', async () => {
    const real = process.env.DATABASE_URL;
    await closeDb();
    process.env.DATABASE_URL = 'postgres://nobody:nothing@127.0.0.1:1/none';
    try {
      const answer = await get('/healthz?details');
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: 'ok', details: { unavailable: expect.stringMatching(/ECONNREFUSED/) } });
      expect(JSON.stringify(answer.json)).not.toContain('nothing');
    } finally {
      await closeDb();
      process.env.DATABASE_URL = real;
    }
  });

  it('gives up on the figures after the timeout', async () => {
    const started = Date.now();
    const reply = await livenessWithDetails(() => new Promise(() => undefined), 100);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(reply).toEqual({ status: 200, body: { status: 'ok', details: { unavailable: 'no answer within 100 ms' } } });
  });
});
