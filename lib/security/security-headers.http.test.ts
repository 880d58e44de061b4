import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/open-api-client';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  delete process.env.PUBLIC_BASE_URL;
});

async function headersOf(path: string, method = 'GET'): Promise<Headers> {
  return (await fetch(`${app!.baseUrl}${path}`, { method, body: method === 'POST' ? '{}' : undefined })).headers;
}

describe('security headers on every answer of the service', () => {
  it('no framing, no sniffing, a strict referrer policy and a CSP pinned to the origin; no HSTS on http', async () => {
    app = await startTestApp();
    for (const [path, method] of [['/healthz', 'GET'], ['/v1/api/open/order/query', 'POST'], ['/anything-else', 'GET'], ['/v1/api/callback/yht', 'POST']] as const) {
      const headers = await headersOf(path, method);
      const csp = headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(headers.get('x-frame-options'), path).toBe('DENY');
      expect(headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('HSTS when the public URL is https', async () => {
    process.env.PUBLIC_BASE_URL = 'https://pay.example.com';
    app = await startTestApp();
    expect((await headersOf('/healthz')).get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
  });
});
