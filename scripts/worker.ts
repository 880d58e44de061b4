/**
 * npm run worker: the background workers apart from the web process (web nodes then set WORKERS=off).
 * With WORKER_HEALTH_PORT it answers GET /healthz (liveness) and GET /readyz (database reachable and migrated, no stale
 * job) there, on WORKER_HEALTH_HOST (127.0.0.1); with METRICS_PORT (and METRICS_TOKEN) it serves GET /metrics on
 * METRICS_HOST (127.0.0.1). It exits 1 when it cannot start (a setting, the database at start);
 * once running, a database outage does not stop it: it waits, retries, and /readyz says so meanwhile.
 */
import { closeDb, getDb } from '../lib/db/client';
import { reportStartupRefusals, StartupRefusal } from '../lib/config/startup-refusal';
import { checkOperationalSettings } from '../lib/config/operational-settings';
import { resolveDatabase } from '../lib/db/connect';
import { CHANNELS } from '../lib/channels';
import { startBackgroundWorkers } from '../lib/workers/background-workers';
import { PERIODIC_JOBS } from '../lib/workers/periodic-jobs';
import { workerReadiness } from '../lib/workers/worker-readiness';
import { startWorkerProbeServer } from '../server/worker-probe-server';
import { startWorkerMetricsServer, workerMetricsSettings } from '../server/worker-metrics-server';
import { logLine } from '../lib/observability/logger';

reportStartupRefusals();
checkOperationalSettings();
for (const channel of CHANNELS) channel.checkSettings?.(); // a malformed channel setting stops the worker here, not at its first run
const probePort = process.env.WORKER_HEALTH_PORT?.trim();
if (probePort && !/^\d{1,5}$/.test(probePort)) throw new StartupRefusal('WORKER_HEALTH_PORT', `must be a port number, got ${JSON.stringify(probePort)}`);
const metricsSettings = workerMetricsSettings(); // METRICS_PORT without a token to guard it stops the worker here

const log = logLine('worker');
const database = await resolveDatabase({ owner: false, log });
const workers = await startBackgroundWorkers(getDb(), database.url, log);
const probes = probePort
  ? await startWorkerProbeServer({ port: Number(probePort), host: process.env.WORKER_HEALTH_HOST?.trim() || '127.0.0.1', readiness: () => workerReadiness(getDb(), PERIODIC_JOBS, new Date()) })
  : undefined;
if (probes) log(`worker probes: http://${process.env.WORKER_HEALTH_HOST?.trim() || '127.0.0.1'}:${probes.port}/healthz and /readyz`);
const metricsServer = metricsSettings ? await startWorkerMetricsServer(metricsSettings) : undefined;
if (metricsServer) log(`worker metrics: http://${metricsSettings!.host}:${metricsServer.port}/metrics`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: finishing attempts in flight`);
  await probes?.close();
  await metricsServer?.close();
  await workers.stop();
  await closeDb();
  if (database.embedded?.startedHere) await database.embedded.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
