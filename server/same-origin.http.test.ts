import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppServer } from './app-server';

/**
 * The service's own server in front of the pages: what reaches the pages' handler (Next.js in production, a recorder
 * here) of a state-changing request. The real server actions are forged against the running app in
 * e2e/portal/cross-origin-actions.spec.ts; this covers every rule at the server's edge.
 */
const reached: { method: string; url: string; forwardedHost: string | undefined }[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = createAppServer({
    pages: (req, res) => {
      reached.push({ method: req.method!, url: req.url!, forwardedHost: req.headers['x-forwarded-host'] as string | undefined });
      res.end('page');
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  reached.length = 0;
  delete process.env.TRUST_PROXY;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A forged server action: what a script sends, with whatever headers it likes. */
async function post(path: string, headers: Record<string, string>) {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'next-action': '7f00aa', 'content-type': 'text/plain;charset=UTF-8', ...headers }, body: '["ORD1"]' });
  return { status: response.status, text: await response.text() };
}

describe('state-changing requests to the pages come from the service itself', () => {
  it('a forged server-action post without Origin is refused 403 before the pages see it', async () => {
    const answer = await post('/portal/orders/ORD1', {});
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/^forbidden: a POST without an Origin header \(or Sec-Fetch-Site: same-origin\) is refused/);
    expect(reached).toEqual([]);
  });

  it('Origin: evil with X-Forwarded-Host: evil.example (the probe\'s pair) is refused, as is Sec-Fetch-Site: cross-site', async () => {
    const forgeries: Record<string, string>[] = [{ origin: 'evil', 'x-forwarded-host': 'evil.example' }, { origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
    for (const headers of forgeries) {
      expect((await post('/operator/credentials', headers)).status, JSON.stringify(headers)).toBe(403);
    }
    expect(reached).toEqual([]);
  });

  it('its own origin, or a browser saying same-origin, goes through; X-Forwarded-Host from an untrusted peer is removed first', async () => {
    expect((await post('/portal/orders/ORD1', { origin: baseUrl, 'x-forwarded-host': 'evil.example' })).status).toBe(200);
    expect((await post('/portal/orders/ORD1', { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(reached).toEqual([
      { method: 'POST', url: '/portal/orders/ORD1', forwardedHost: undefined },
      { method: 'POST', url: '/portal/orders/ORD1', forwardedHost: undefined },
    ]);
  });

  it('from the proxy TRUST_PROXY names, its X-Forwarded-Host and -Proto say which origin is the own one', async () => {
    process.env.TRUST_PROXY = '127.0.0.1';
    const proxied = { 'x-forwarded-host': 'pay.shop.example', 'x-forwarded-proto': 'https' };
    expect((await post('/portal/orders/ORD1', { ...proxied, origin: 'https://pay.shop.example' })).status).toBe(200);
    expect((await post('/portal/orders/ORD1', { ...proxied, origin: baseUrl })).status).toBe(403);
    process.env.TRUST_PROXY = '10.0.0.5';
    expect((await post('/portal/orders/ORD1', { ...proxied, origin: 'https://pay.shop.example' })).status).toBe(403);
    expect(reached).toEqual([{ method: 'POST', url: '/portal/orders/ORD1', forwardedHost: 'pay.shop.example' }]);
  });

  it('reading is not judged, and machine-to-machine paths (signed open API and callbacks, the simulated upstreams) are exempt', async () => {
    expect((await fetch(`${baseUrl}/portal/orders`)).status).toBe(200);
    for (const path of ['/v1/api/callback/nochannel', '/sandbox/alipay/gateway.do', '/sandbox/wechat/v3/pay/transactions/native', '/sandbox/yht/api/pay/create', '/sandbox/tron/wallet/getnowblock']) {
      expect((await post(path, {})).status, path).toBe(200);
    }
    expect((await post('/sandbox/tron/transfer', {})).status).toBe(403);
    expect((await post('/sandbox/alipay/cashier/T1/pay', {})).status).toBe(403);
    expect((await post('/locale', {})).status).toBe(403);
  });
});
