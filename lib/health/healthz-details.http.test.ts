import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { closeDb, getDb } from '../db/client';
import { runJobExclusively } from '../workers/periodic-job';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { livenessWithDetails } from './health-replies';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function get(path: string) {
  const response = await fetch(`${app.baseUrl}${path}`);
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

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
