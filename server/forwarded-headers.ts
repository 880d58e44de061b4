import type http from 'node:http';
import { forwardedForHops } from '../lib/accounts/client-address';
import { trustsForwardedHeaders } from '../lib/security/trusted-proxy';

/** What a proxy says about the original request: who sent it, to which host, over which scheme. */
const HOST_HEADERS = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-server', 'forwarded'] as const;

/**
 * Next.js believes X-Forwarded-For (whom the sign-in throttle counts) and X-Forwarded-Host (which host a server action's
 * Origin is checked against, which URLs are built on): a client that sends them picks both. They count only when the
 * socket's peer is the proxy the service is configured to trust (TRUST_PROXY); from anyone else X-Forwarded-For becomes
 * the socket's address and the others are removed, before any handler reads them. A trusted proxy that writes only
 * `Forwarded` (RFC 7239) has its `for=` hops copied into X-Forwarded-For, which is the one header the service reads.
 */
export function settleForwardedHeaders(req: http.IncomingMessage): void {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!trustsForwardedHeaders(peer)) {
    req.headers['x-forwarded-for'] = peer;
    for (const name of HOST_HEADERS) delete req.headers[name];
    return;
  }
  if (req.headers['x-forwarded-for'] === undefined) {
    const hops = forwardedForHops(req.headers.forwarded);
    req.headers['x-forwarded-for'] = hops.length > 0 ? hops.join(', ') : peer;
  }
}
