import type http from 'node:http';
import { CHANNELS } from '../lib/channels';
import { publicBaseUrl } from '../lib/orders/identifiers';
import { log } from '../lib/observability/logger';
import { crossOriginRefusal, originOf } from '../lib/security/same-origin';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The simulated upstreams' APIs, which the channels' adapters call machine to machine (the registry's). */
const SANDBOX_API_PATHS = CHANNELS.flatMap((channel) => channel.sandboxApiPaths ?? []);

/**
 * The origins this request may come from: PUBLIC_BASE_URL's, and the one it was addressed to (its Host, or the
 * X-Forwarded-Host and -Proto a trusted proxy wrote: server/forwarded-headers.ts has removed anyone else's).
 */
function ownOrigins(req: http.IncomingMessage): string[] {
  const host = single(req.headers['x-forwarded-host'])?.split(',')[0]?.trim() ?? req.headers.host;
  const scheme = single(req.headers['x-forwarded-proto'])?.split(',')[0]?.trim() ?? ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http');
  return [originOf(publicBaseUrl()), host ? originOf(`${scheme}://${host}`) : undefined].filter((origin): origin is string => origin !== undefined);
}

/** The pages' handler behind the same-origin rule (lib/security/same-origin.ts): a refused request gets 403 and never reaches it. */
export function sameOriginPages(pages: NodeHandler): NodeHandler {
  return (req, res) => {
    const refusal = crossOriginRefusal({
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      origin: single(req.headers.origin),
      secFetchSite: single(req.headers['sec-fetch-site']),
      ownOrigins: ownOrigins(req),
      sandboxApiPaths: SANDBOX_API_PATHS,
    });
    if (!refusal) return pages(req, res);
    log().warn({ component: 'http', requestId: req.headers['x-request-id'] }, `refused: ${req.method} ${(req.url ?? '/').split('?')[0]!.slice(0, 200)}: ${refusal}`);
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`forbidden: ${refusal}\n`);
  };
}
