import type http from 'node:http';

/**
 * Next.js keeps a client-sent X-Forwarded-For, which would let anyone pick the address the sign-in throttle counts.
 * Unless the service runs behind a proxy it trusts (TRUST_PROXY=true, which appends the real address), the header
 * is replaced by the socket's address before the request reaches Next.js.
 */
export function stampClientAddress(req: http.IncomingMessage, env: NodeJS.ProcessEnv = process.env): void {
  if (env.TRUST_PROXY === 'true') return;
  req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
}
