import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mustReadPrimary, READ_PRIMARY_COOKIE, READ_PRIMARY_HEADER } from '../lib/db/read-your-writes';
import { stampOwnWrites } from './read-your-writes';

function exchange(method: string, url: string, headers: http.IncomingHttpHeaders = {}) {
  const req = new http.IncomingMessage(new net.Socket());
  Object.assign(req, { method, url, headers: { ...headers } });
  const res = new http.ServerResponse(req);
  return { req, res };
}

const NOW = Date.parse('2026-12-02T03:00:00Z');

describe('read-your-writes on a replica', () => {
  const saved = process.env.DATABASE_REPLICA_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.DATABASE_REPLICA_URL;
    else process.env.DATABASE_REPLICA_URL = saved;
    delete process.env.DATABASE_REPLICA_MAX_LAG_SECONDS;
  });

  it("a back-office POST reads the primary and marks its author's pages for the max lag plus 5 s", () => {
    process.env.DATABASE_REPLICA_URL = 'postgres://reader@replica.internal:5432/payments';
    process.env.DATABASE_REPLICA_MAX_LAG_SECONDS = '10';
    for (const path of ['/portal/orders/P1', '/operator/credentials?status=pending']) {
      const { req, res } = exchange('POST', path);
      stampOwnWrites(req, res, NOW);
      expect(req.headers[READ_PRIMARY_HEADER]).toBe('1');
      expect([res.getHeader('set-cookie')].flat()).toEqual([`${READ_PRIMARY_COOKIE}=${NOW + 15_000}; Path=/; Max-Age=15; HttpOnly; SameSite=Lax`]);
    }
    expect(mustReadPrimary({ cookie: String(NOW + 15_000), now: NOW + 14_999 })).toBe(true);
    expect(mustReadPrimary({ cookie: String(NOW + 15_000), now: NOW + 15_000 })).toBe(false);
    expect(mustReadPrimary({ header: '1', now: NOW })).toBe(true);
    expect(mustReadPrimary({ cookie: 'soon', now: NOW })).toBe(false);
  });

  it('GETs, the open API and checkout are not writes of the back office, and a client-sent mark is never kept', () => {
    process.env.DATABASE_REPLICA_URL = 'postgres://reader@replica.internal:5432/payments';
    for (const [method, path] of [['GET', '/portal/orders'], ['HEAD', '/operator'], ['POST', '/api/pay/submit'], ['POST', '/pay/P1'], ['POST', '/portalx']]) {
      const { req, res } = exchange(method!, path!, { [READ_PRIMARY_HEADER]: '1' });
      stampOwnWrites(req, res, NOW);
      expect(req.headers[READ_PRIMARY_HEADER]).toBeUndefined();
      expect(res.getHeader('set-cookie')).toBeUndefined();
    }
  });

  it('without a replica nothing is marked: every read is on the primary anyway', () => {
    delete process.env.DATABASE_REPLICA_URL;
    const { req, res } = exchange('POST', '/portal/orders/P1');
    stampOwnWrites(req, res, NOW);
    expect(req.headers[READ_PRIMARY_HEADER]).toBeUndefined();
    expect(res.getHeader('set-cookie')).toBeUndefined();
  });
});
