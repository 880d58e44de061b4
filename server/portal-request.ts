import type http from 'node:http';
import { isPortalPath, PORTAL_REQUEST_HEADER } from '../lib/i18n/portal-request';

/**
 * Next.js gives a page no way to read its own path, yet i18n/request.ts must know a portal page (its times are in
 * the merchant's zone) from the others. The header says so; the client's own value is never kept.
 */
export function stampPortalRequest(req: http.IncomingMessage): void {
  if (isPortalPath((req.url ?? '/').split('?')[0]!)) req.headers[PORTAL_REQUEST_HEADER] = '1';
  else delete req.headers[PORTAL_REQUEST_HEADER];
}
