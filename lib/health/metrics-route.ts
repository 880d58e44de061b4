import { collectDefaultMetrics } from 'prom-client';
import { getDb, type Database } from '../db/client';
import { bearerMatches, mayReadHealthDetails } from './details-access';
import { metrics } from '../observability/metrics';
import { registerScrapeGauges } from './scrape-gauges';

// With the probes in lib/health/, not in lib/observability/: a scrape reads the database and the operator's health
// (as /healthz does), while lib/observability/ (logger, metric registry) stays below lib/db/, which counts into it.

export const METRICS_REFUSAL = 'metrics need an operator session or Authorization: Bearer <METRICS_TOKEN> (or <HEALTH_DETAILS_TOKEN>)';

const globalForScrape = globalThis as unknown as { __paymentScrapeReady?: boolean };

/** The registry with everything a scrape shows: the in-memory metrics, the gauges read at scrape time, Node's own. */
function scrapeRegistry(db: () => Database) {
  const { registry } = metrics();
  if (!globalForScrape.__paymentScrapeReady) {
    globalForScrape.__paymentScrapeReady = true;
    registerScrapeGauges(registry, db);
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

/** The Prometheus text of this process's metrics. */
export async function metricsText(db: () => Database = getDb): Promise<{ contentType: string; text: string }> {
  const registry = scrapeRegistry(db);
  return { contentType: registry.contentType, text: await registry.metrics() };
}

/** Prometheus' token (METRICS_TOKEN), or the health monitor's (HEALTH_DETAILS_TOKEN). */
export function metricsBearerMatches(request: Request, env: NodeJS.ProcessEnv = process.env): boolean {
  return bearerMatches(request, env, 'METRICS_TOKEN') || bearerMatches(request, env, 'HEALTH_DETAILS_TOKEN');
}

/**
 * GET /metrics on the web process: the same guard as `/healthz?details` (an operator's session or the
 * HEALTH_DETAILS_TOKEN bearer) or a METRICS_TOKEN bearer of its own; 401 otherwise.
 */
export async function metricsGet(request: Request): Promise<Response> {
  if (!metricsBearerMatches(request) && !(await mayReadHealthDetails(getDb, request))) {
    return Response.json({ error: METRICS_REFUSAL }, { status: 401, headers: { 'cache-control': 'no-store' } });
  }
  const { contentType, text } = await metricsText();
  return new Response(text, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
