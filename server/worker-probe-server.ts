import http from 'node:http';
import { listenSmallServer } from './small-server';
import type { ProbeReply } from '../lib/health/health-replies';

/**
 * The worker's probes on WORKER_HEALTH_PORT: GET /healthz (liveness: the process and its event loop answer) and
 * GET /readyz (it can work: database reachable and migrated, no stale job). Loopback by default (WORKER_HEALTH_HOST).
 */
export function startWorkerProbeServer(options: { port: number; host: string; readiness: () => Promise<ProbeReply> }): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = (reply: ProbeReply) => {
      const json = JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(json) });
      res.end(req.method === 'HEAD' ? undefined : json);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer({ status: 405, body: { status: 'method not allowed' } });
    if (path === '/healthz') return answer({ status: 200, body: { status: 'ok' } });
    if (path === '/readyz') {
      options.readiness().then(answer, (error: unknown) => answer({ status: 503, body: { status: 'unavailable', error: error instanceof Error ? error.message : String(error) } }));
      return;
    }
    answer({ status: 404, body: { status: 'not found' } });
  });
  return listenSmallServer(server, options);
}
