/**
 * Marks a request for a portal page. The service's HTTP server sets it on every request under /portal before Next.js
 * sees it, and removes a client-sent one everywhere else (server/portal-request.ts): portal pages show times in the
 * signed-in merchant's zone, every other page (console, checkout, sandbox) in the service's display zone.
 */
export const PORTAL_REQUEST_HEADER = 'x-portal-request';

export function isPortalPath(path: string): boolean {
  return path === '/portal' || path.startsWith('/portal/');
}
