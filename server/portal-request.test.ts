import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { PORTAL_REQUEST_HEADER } from '../lib/i18n/portal-request';
import { stampPortalRequest } from './portal-request';

function stamped(url: string, headers: http.IncomingHttpHeaders = {}): string | string[] | undefined {
  const req = { url, headers: { ...headers } } as http.IncomingMessage;
  stampPortalRequest(req);
  return req.headers[PORTAL_REQUEST_HEADER];
}

describe('stampPortalRequest', () => {
  it('marks the portal and its pages, with or without a query (client navigations carry ?_rsc=)', () => {
    expect(stamped('/portal')).toBe('1');
    expect(stamped('/portal/orders?from=2026-11-23&_rsc=abc')).toBe('1');
    expect(stamped('/portal/account')).toBe('1');
  });

  it('never keeps a client-sent mark outside the portal', () => {
    for (const url of ['/operator', '/pay/abcdefghijklmnopqrstuvwxyz', '/portals', '/', '/sandbox/tron']) {
      expect(stamped(url, { [PORTAL_REQUEST_HEADER]: '1' }), url).toBeUndefined();
    }
  });
});
