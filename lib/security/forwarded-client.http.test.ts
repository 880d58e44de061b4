import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/open-api-client';

/**
 * The client a throttle counts, from what a trusted proxy writes: the probe's X-Forwarded-For
 * `[2001:db8:bbbb:1::1]:1001` … `:1008` was eight clients to the callback limiter (30 refused callbacks a minute per
 * source). One network is one source whatever port, bracket, quote or header (`Forwarded: for=`) the proxy uses.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => {
  delete process.env.TRUST_PROXY;
});
afterAll(() => app.close());

async function forgedCallback(headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${app.baseUrl}/v1/api/callback/yht`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: `orderNo=Y${Math.random()}&sign=forged`,
  });
  await response.arrayBuffer();
  return response.status;
}

describe('a proxy-written client address is one throttle key', () => {
  it('bracketed IPv6 with a port: [2001:db8:bbbb:1::1]:1001 … :1008 are one source, and so is Forwarded: for= of its /64', async () => {
    process.env.TRUST_PROXY = 'true';
    const ports = [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect(await forgedCallback({ 'x-forwarded-for': `[2001:db8:bbbb:1::1]:${ports[attempt % 8]}` })).toBe(200);
    }
    for (const port of ports) expect(await forgedCallback({ 'x-forwarded-for': `[2001:db8:bbbb:1::1]:${port}` }), `port ${port}`).toBe(429);
    expect(await forgedCallback({ forwarded: 'for="[2001:db8:bbbb:1::77]:4711";proto=https' })).toBe(429);
    expect(await forgedCallback({ 'x-forwarded-for': '2001:DB8:BBBB:1:0::2' })).toBe(429);
    // Another network is another source.
    expect(await forgedCallback({ 'x-forwarded-for': '[2001:db8:bbbb:2::1]:1001' })).toBe(200);
  });

  it('IPv4 with a port, and the last for= of a Forwarded chain', async () => {
    process.env.TRUST_PROXY = 'true';
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect(await forgedCallback({ 'x-forwarded-for': `198.51.100.30:${2000 + attempt}` })).toBe(200);
    }
    expect(await forgedCallback({ 'x-forwarded-for': '198.51.100.30' })).toBe(429);
    expect(await forgedCallback({ forwarded: 'for=192.0.2.60;by=10.0.0.1, for="198.51.100.30:9999"' })).toBe(429);
    expect(await forgedCallback({ forwarded: 'for=198.51.100.31' })).toBe(200);
  });

  it('TRUST_PROXY naming other proxies: this peer\'s forwarded headers are not believed', async () => {
    process.env.TRUST_PROXY = '10.9.9.9, 192.0.2.0/24';
    // Each forged address would be a fresh source if believed; they all count as the socket's own address instead.
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect(await forgedCallback({ 'x-forwarded-for': `203.0.113.${attempt + 1}` })).toBe(200);
    }
    expect(await forgedCallback({ 'x-forwarded-for': '203.0.113.200' })).toBe(429);
    process.env.TRUST_PROXY = '127.0.0.0/8';
    expect(await forgedCallback({ 'x-forwarded-for': '203.0.113.201' })).toBe(200);
  });
});
