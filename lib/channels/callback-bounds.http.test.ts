import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { upstreamCallbacks } from '../db/schema';
import { startTestApp, type TestApp } from '../../test/open-api-client';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function postRaw(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  return { status: response.status, text: await response.text() };
}

describe('unauthenticated callback bodies are bounded', () => {
  it.each(['/v1/api/callback/yht', '/v1/api/callback/alipay', '/v1/api/callback/wechat'])('%s answers 413 over 64 KiB', async (path) => {
    const answer = await postRaw(path, `sign=x&filler=${'a'.repeat(70 * 1024)}`);
    expect(answer.status).toBe(413);
  });
});

describe('forged callbacks are rate-limited per source', () => {
  it('after 30 refused callbacks in a minute a source gets 429 and nothing more is recorded; other sources still get through', async () => {
    process.env.TRUST_PROXY = 'true'; // lets the test speak from several addresses
    try {
      const forger = { 'x-forwarded-for': '203.0.113.7' };
      const before = await callbackRows();
      for (let attempt = 0; attempt < 30; attempt += 1) {
        expect((await postRaw('/v1/api/callback/yht', `orderNo=Y${attempt}&sign=forged`, forger)).status).toBe(200);
      }
      expect(await callbackRows()).toBe(before + 30);
      for (const path of ['/v1/api/callback/yht', '/v1/api/callback/alipay', '/v1/api/callback/wechat']) {
        expect((await postRaw(path, 'orderNo=Y99&sign=forged', forger)).status).toBe(429);
      }
      expect(await callbackRows()).toBe(before + 30);
      expect((await postRaw('/v1/api/callback/yht', 'orderNo=Y1&sign=forged', { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });
});

async function callbackRows(): Promise<number> {
  const [row] = await getDb().select({ count: sql<number>`count(*)::int` }).from(upstreamCallbacks);
  return row!.count;
}
