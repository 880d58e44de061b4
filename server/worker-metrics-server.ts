import http from 'node:http';
import { listenSmallServer } from './small-server';
import { configuredToken } from '../lib/config/token-settings';
import { StartupRefusal } from '../lib/config/startup-refusal';
import { METRICS_REFUSAL, metricsBearerMatches, metricsText } from '../lib/health/metrics-route';

/**
 * The worker's metrics when METRICS_PORT is set: refuses to start without a bearer token to guard them (METRICS_TOKEN,
 * or HEALTH_DETAILS_TOKEN): the worker has no operator sessions, and metrics are never served open.
 */
export function workerMetricsSettings(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } | undefined {
  const port = env.METRICS_PORT?.trim();
  if (!port) return undefined;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) throw new StartupRefusal('METRICS_PORT', `must be a port number, got ${JSON.stringify(port)}`);
  if (!configuredToken('METRICS_TOKEN', env) && !configuredToken('HEALTH_DETAILS_TOKEN', env)) {
    throw new StartupRefusal('METRICS_TOKEN', 'METRICS_PORT is set: set METRICS_TOKEN (or HEALTH_DETAILS_TOKEN) for Prometheus to send as Authorization: Bearer, else the metrics would be open');
  }
  return { port: Number(port), host: env.METRICS_HOST?.trim() || '127.0.0.1' };
}

/** GET /metrics (Prometheus text) for a bearer of METRICS_TOKEN or HEALTH_DETAILS_TOKEN; 401 otherwise. */
export function startWorkerMetricsServer(options: { port: number; host: string }): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const answer = (status: number, contentType: string, text: string) => {
      res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    const json = (status: number, body: unknown) => answer(status, 'application/json; charset=utf-8', JSON.stringify(body));
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    if ((req.url ?? '/').split('?')[0] !== '/metrics') return json(404, { error: 'not found' });
    const authorization = req.headers.authorization;
    if (!metricsBearerMatches(new Request('http://worker/metrics', { headers: authorization ? { authorization } : {} }))) return json(401, { error: METRICS_REFUSAL });
    metricsText().then(
      ({ contentType, text }) => answer(200, contentType, text),
      (error: unknown) => json(500, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  return listenSmallServer(server, options);
}
