/**
 * npm run worker: the background workers apart from the web process (web nodes then set WORKERS=off).
 * With WORKER_HEALTH_PORT it answers GET /healthz (liveness) and GET /readyz (database reachable and migrated, no stale
 * job) there, on WORKER_HEALTH_HOST (127.0.0.1); with METRICS_PORT (and METRICS_TOKEN) it serves GET /metrics on
 * METRICS_HOST (127.0.0.1). It exits 1 when it cannot start (a setting, the database at start);
 * once running, a database outage does not stop it: it waits, retries, and /readyz says so meanwhile.
 */
import { settleEntryArguments } from '../lib/cli/entry-arguments';

const USAGE = [
  'usage: npm run worker',
  '',
  "Runs the background workers (notification delivery, each channel's watchers and pollers, the periodic jobs) apart",
  'from the web process, on DATABASE_URL or the embedded PostgreSQL. Settings come from the environment:',
  '  WORKER_HEALTH_PORT   answer GET /healthz and /readyz there (WORKER_HEALTH_HOST, default 127.0.0.1)',
  '  METRICS_PORT         serve GET /metrics there, with METRICS_TOKEN (METRICS_HOST, default 127.0.0.1)',
  'It takes no arguments.',
].join('\n');
settleEntryArguments(process.argv.slice(2), USAGE); // before anything loads or starts

const { closeDb, getDb } = await import('../lib/db/client');
const { reportStartupRefusals, StartupRefusal } = await import('../lib/config/startup-refusal');
const { checkOperationalSettings } = await import('../lib/bootstrap/operational-settings');
const { resolveDatabase } = await import('../lib/db/connect');
const { CHANNELS } = await import('../lib/channels');
const { startBackgroundWorkers } = await import('../lib/workers/background-workers');
const { PERIODIC_JOBS } = await import('../lib/workers/periodic-jobs');
const { workerReadiness } = await import('../lib/workers/worker-readiness');
const { startWorkerProbeServer } = await import('../server/worker-probe-server');
const { startWorkerMetricsServer, workerMetricsSettings } = await import('../server/worker-metrics-server');
const { logLine } = await import('../lib/observability/logger');

reportStartupRefusals();
// Production's log is JSON lines only: what the libraries and Node.js print goes through the logger from here on.
if ((await import('../lib/observability/log-destination')).logFormat() === 'json') (await import('../lib/observability/process-output')).routeProcessOutputThroughLog('console');
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
