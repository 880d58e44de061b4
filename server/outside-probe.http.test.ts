import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { orders } from '../lib/db/schema';
import { saveMerchantBranding } from '../lib/merchants/branding';
import { newOrderNo, newPayToken } from '../lib/orders/identifiers';
import { aMerchant } from '../test/factories';
import { ensureProductionBuild, startProductionService, type ProductionService } from '../test/production-service';
import { logEntry } from '../test/log-lines';

/**
 * An outside probe's requests, replayed against the production build as the operations guide starts it (the web
 * process of its systemd unit, on a database, YHT not configured): each answer, and every line the process wrote.
 */
let service: ProductionService;

beforeAll(async () => {
  await ensureProductionBuild();
  service = await startProductionService();
}, 20 * 60_000);

afterAll(async () => {
  await service?.stop();
});

/** As the language switch's form posts it: from a page of this service (a post from anywhere else is refused first, server/same-origin.http.test.ts). */
function postLocale(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${service.baseUrl}/locale`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(service.baseUrl).origin, ...headers },
    body,
    redirect: 'manual',
  });
}

describe('POST /locale returns to a path of this service only', () => {
  it('a returnTo carrying a log line (the probe’s newlines) answers 303 home and writes no line of its own', async () => {
    const forged = '{"level":30,"time":1764000000000,"pid":1,"component":"notifications","orderNo":"U20261201000000000001","msg":"notification delivered"}';
    const response = await postLocale(`locale=en&returnTo=/%0A${forged}%0Ax`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything it logged has been written by now
    const entries = service.lines().map((line) => logEntry(line.text));
    expect(entries.filter((entry) => entry?.msg === 'notification delivered')).toEqual([]);
    expect(service.lines().filter((line) => line.text.includes('"time":1764000000000'))).toEqual([]);
  });

  it('a returnTo a browser would read as another site (the probe’s tab, and its kin) goes home', async () => {
    const origin = new URL(service.baseUrl).origin;
    const refused = [
      '/%09/evil.example/phish', // the probe's: Chromium drops the tab and follows //evil.example/phish
      '/%0A/evil.example',
      '/%0D/evil.example',
      '%09//evil.example',
      '/ /evil.example',
      '/%20/evil.example',
      '/%C2%A0/evil.example', // a no-break space
      '/%E2%80%A8/evil.example', // a line separator
      '/%00/evil.example',
      '/%7F/evil.example',
      '//evil.example/x',
      '/%5C/evil.example', // a backslash: /\ is // to a browser
      '/.//evil.example', // a dot segment that resolves to //evil.example
      '/./%2F/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'portal',
      '',
    ];
    for (const returnTo of refused) {
      const response = await postLocale(`locale=zh-CN&returnTo=${returnTo}`);
      expect(response.status, returnTo).toBe(303);
      const location = response.headers.get('location')!;
      expect(location, returnTo).toBe('/');
      expect(new URL(location, service.baseUrl).origin).toBe(origin);
      expect(response.headers.get('set-cookie'), returnTo).toContain('NEXT_LOCALE=zh-CN');
    }
    for (const kept of ['/portal/orders?page=2&status=paid', '/pay/abc?lang=en#top', '/portal/sign-in']) {
      const response = await postLocale(`locale=en&returnTo=${encodeURIComponent(kept)}`);
      expect(response.headers.get('location'), kept).toBe(kept);
    }
  });
});

describe('an upstream callback of a channel production has not configured', () => {
  it('POST /v1/api/callback/yht with junk answers 404, never 500', async () => {
    for (const body of ['junk', '', 'mchNo=x&outTradeNo=Y1&tradeNo=T1&amount=1.00&status=SUCCESS&sign=00', '%%%', '{"a":1}']) {
      const response = await fetch(`${service.baseUrl}/v1/api/callback/yht`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect(response.status, body).toBe(404);
      await response.arrayBuffer();
    }
  });
});

describe('the checkout logo', () => {
  it('keeps its own sandbox policy: no script, not the site-wide CSP', async () => {
    const merchant = await aMerchant();
    await saveMerchantBranding(getDb(), merchant.id, { displayName: 'Tea House', logo: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) });
    const payToken = newPayToken();
    await getDb()
      .insert(orders)
      .values({
        orderNo: newOrderNo('Y', new Date()),
        merchantId: merchant.id,
        merchantOrderNo: 'LOGO-1',
        channel: 'YHT',
        currency: 'CNY',
        requestedAmountMinor: 100n,
        payAmountMinor: 100n,
        productName: 'Tea',
        notifyUrl: 'https://merchant.example/notify',
        payToken,
        expiresAt: new Date(Date.now() + 30 * 60_000),
      });
    const response = await fetch(`${service.baseUrl}/pay/${payToken}/logo?v=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    // One policy, the logo's own (fetch joins repeated headers with ", ").
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY'); // the other site-wide headers stay
    // The checkout page itself keeps the site-wide policy.
    const page = await fetch(`${service.baseUrl}/pay/${payToken}`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('every line the production process writes is a JSON log entry', () => {
  it('after the probe’s requests (server actions from another origin, unknown actions, malformed paths) and a stop', async () => {
    const probes: [string, RequestInit][] = [
      // A server action posted from another site, through a proxy that forwards an attacker's host.
      ['/portal/sign-in', { method: 'POST', headers: { origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', 'next-action': 'a'.repeat(42), 'content-type': 'text/plain;charset=UTF-8' }, body: '[]' }],
      ['/portal/sign-in', { method: 'POST', headers: { origin: 'evil', 'next-action': '0'.repeat(42), 'content-type': 'text/plain;charset=UTF-8' }, body: '[]' }],
      // An action id that does not exist, same-origin.
      ['/portal/sign-in', { method: 'POST', headers: { origin: service.baseUrl, 'next-action': 'f'.repeat(42), 'content-type': 'text/plain;charset=UTF-8' }, body: '["x"]' }],
      ['/%E0%A4%A', { method: 'GET' }],
      ['/portal/sign-in', { method: 'GET', headers: { rsc: '1', 'next-router-state-tree': '%7Bnot json' } }],
      ['/_next/image?url=http://169.254.169.254/&w=64&q=75', { method: 'GET' }],
      ['/pay/..%2F..%2Fetc%2Fpasswd', { method: 'GET' }],
      ['/locale', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nbroken' }],
    ];
    for (const [path, init] of probes) {
      const response = await fetch(`${service.baseUrl}${path}`, { ...init, redirect: 'manual' });
      await response.arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await service.stop()).toBe(0);
    const lines = service.lines();
    expect(lines.length).toBeGreaterThan(3); // its start, ready and stop lines at least
    expect(lines.filter((line) => !logEntry(line.text))).toEqual([]);
  });
});
