import { afterEach, describe, expect, it } from 'vitest';
import { addressedOrigin } from '../sandbox/addressed-origin';

const saved = process.env.PUBLIC_BASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.PUBLIC_BASE_URL;
  else process.env.PUBLIC_BASE_URL = saved;
});

/** A route's request as Next.js hands it over behind the service's server: its URL names localhost whatever was called. */
const routeRequest = (host: string | undefined) => new Request('http://localhost:3187/sandbox/wechat/v3/bill/tradebill', { headers: host ? { host } : {} });

describe('the origin a sandbox names in the links it answers', () => {
  it('is the host the caller addressed, not the server hostname Next.js puts in request.url', () => {
    process.env.PUBLIC_BASE_URL = 'http://localhost:3187';
    expect(addressedOrigin(routeRequest('127.0.0.1:3187'))).toBe('http://127.0.0.1:3187');
    expect(addressedOrigin(routeRequest('localhost:3187'))).toBe('http://localhost:3187');
  });

  it("is PUBLIC_BASE_URL's origin, scheme included, when the caller addressed that host (a TLS proxy in front)", () => {
    process.env.PUBLIC_BASE_URL = 'https://pay.staging.example';
    expect(addressedOrigin(routeRequest('pay.staging.example'))).toBe('https://pay.staging.example');
  });

  it("is the request URL's without a Host, or with one that is no host", () => {
    expect(addressedOrigin(routeRequest(undefined))).toBe('http://localhost:3187');
    expect(addressedOrigin(routeRequest('evil.example/path?x'))).toBe('http://localhost:3187');
  });
});
