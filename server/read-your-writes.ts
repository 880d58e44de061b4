import type http from 'node:http';
import { replicaMaxLagSeconds, replicaUrl } from '../lib/db/replica-settings';
import { isBackOfficePath, READ_PRIMARY_COOKIE, READ_PRIMARY_HEADER, readPrimarySeconds } from '../lib/db/read-your-writes';

/**
 * A back-office POST (a server action) is the person's own write: its answer and, through the cookie,
 * their pages for readPrimarySeconds read the primary (lib/db/read-your-writes.ts). Without a replica nothing is set.
 * The client's own header is never kept.
 */
export function stampOwnWrites(req: http.IncomingMessage, res: http.ServerResponse, now = Date.now()): void {
  delete req.headers[READ_PRIMARY_HEADER];
  const path = (req.url ?? '/').split('?')[0]!;
  const method = req.method ?? 'GET';
  if (!replicaUrl() || method === 'GET' || method === 'HEAD' || !isBackOfficePath(path)) return;
  req.headers[READ_PRIMARY_HEADER] = '1';
  const seconds = readPrimarySeconds(replicaMaxLagSeconds());
  res.appendHeader('set-cookie', `${READ_PRIMARY_COOKIE}=${now + seconds * 1000}; Path=/; Max-Age=${seconds}; HttpOnly; SameSite=Lax`);
}
