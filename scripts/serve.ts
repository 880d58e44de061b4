/**
 * The service: database (DATABASE_URL or the embedded server), migrations, first-run demo data in development,
 * then one HTTP server for the open API, the checkout pages and everything else Next.js serves.
 *   npm run dev    development (Next.js dev mode), through tsx: the channels' development sandboxes load by path
 *   npm start      production: this file compiled (dist/cli/serve.js, by `npm run build`), ready in about a second
 */
import { settleEntryArguments } from '../lib/cli/entry-arguments';

const USAGE = [
  'usage: npm start            (production: node dist/cli/serve.js, built by npm run build)',
  '       npm run dev          (development: scripts/serve.ts --dev)',
  '',
  'Serves the open API, the checkout pages, the portal and the console on PORT (3000) and HOST, on DATABASE_URL or',
  'the embedded PostgreSQL, with the background workers unless WORKERS=off. Its one argument is --dev.',
].join('\n');
// Before anything loads or starts.
const dev = settleEntryArguments(process.argv.slice(2), USAGE, { dev: { type: 'boolean' } }).flag('dev');
process.env.NEXT_TELEMETRY_DISABLED ??= '1'; // the service runs on closed networks too
(process.env as Record<string, string>).NODE_ENV = dev ? 'development' : 'production';

const { reportStartupRefusals } = await import('../lib/config/startup-refusal');
reportStartupRefusals(); // a missing or wrong setting is one line naming it
// Production's log is JSON lines only: what Next.js and Node.js print goes through the logger from here on.
if ((await import('../lib/observability/log-destination')).logFormat() === 'json') (await import('../lib/observability/process-output')).routeProcessOutputThroughLog('console');
(await import('../lib/bootstrap/operational-settings')).checkOperationalSettings(); // database timeouts, job deadlines, watcher lag
const { default: next } = await import('next');
const { resolveDatabase } = await import('../lib/db/connect');
const { closeDb, getDb } = await import('../lib/db/client');
const { closeReadDb } = await import('../lib/db/read-db');
const { seedFirstRun, describeFirstRun } = await import('../lib/bootstrap/first-run');
const { createAppServer, listen } = await import('../server/app-server');
const { DEVELOPMENT_SOCKETS, NO_UPGRADES } = await import('../server/upgrade-offers');
const { startBackgroundWorkers, workersEnabled } = await import('../lib/workers/background-workers');
const { stampPortalRequest } = await import('../server/portal-request');
const { stampOwnWrites } = await import('../server/read-your-writes');
const { sandboxMountedInProduction, sandboxStartBanner } = await import('../lib/sandbox/sandbox-exposure');
const { checkPublicBaseUrl } = await import('../lib/config/public-url');
const { checkTokenSettings } = await import('../lib/config/token-settings');
const { recordServiceSandboxMode } = await import('../lib/sandbox/database-sandbox-mode');
const { recordServiceBaseUrl } = await import('../lib/settings/service-address');
const { publicBaseUrl } = await import('../lib/orders/identifiers');
const { privateNetworksAllowed } = await import('../lib/notifications/destination-guard');
const { CHANNELS } = await import('../lib/channels');
const { log: serviceLog, logLine } = await import('../lib/observability/logger');

// The secrets (NEXTAUTH_SECRET, APP_ENCRYPTION_KEY) are settled with the database below (lib/config/process-secrets).
checkPublicBaseUrl(); // production: an https PUBLIC_BASE_URL (or an explicit ALLOW_HTTP_PUBLIC_BASE_URL=true)
checkTokenSettings(); // a bearer token setting (HEALTH_DETAILS_TOKEN) too short, guessable or with other characters stops here
(await import('../lib/security/trusted-proxy')).checkTrustProxySetting(); // TRUST_PROXY: true, false or the proxies' addresses
const mail = (await import('../lib/mail/mail-settings')).mailSettings(); // SMTP_URL without SMTP_FROM, or a malformed one, stops here
for (const channel of CHANNELS) channel.checkSettings?.(); // a malformed channel setting stops the service here, not at the first submit

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? (dev ? '127.0.0.1' : '0.0.0.0'); // a development server is not for the network
const log = logLine('service');

const database = await resolveDatabase({ owner: true, log });
log(database.embedded ? 'database: embedded PostgreSQL (./.data/pg)' : 'database: DATABASE_URL');
log(mail ? `mail: team invitations e-mailed through ${new URL(mail.url).hostname} from ${mail.from}` : 'mail: off (SMTP_URL unset): invitation links are shown to pass on');
if (sandboxMountedInProduction()) serviceLog().warn({ component: 'service' }, sandboxStartBanner());
await recordServiceSandboxMode(getDb()); // sandbox credentials may be added only where the service has the sandbox on

if (dev || process.env.FIRST_RUN_SEED === 'true') {
  const seeded = await seedFirstRun(getDb());
  if (seeded) log(describeFirstRun(seeded, { baseUrl: publicBaseUrl(), loopbackNotifications: privateNetworksAllowed() }));
}

// The channels' development sandboxes (the EVM nodes) start before the worker, which reads their settings at start.
const { sandboxEnabled } = await import('../lib/sandbox/sandbox-enabled');
const devSandboxes = dev && sandboxEnabled() ? await (await import('../lib/channels/dev-sandboxes')).startDevSandboxes(getDb(), log) : undefined;
const workers = workersEnabled() ? await startBackgroundWorkers(getDb(), database.url, log) : undefined;

if (dev && !(await import('../server/dev-static-paths')).readStaticPathsOncePerRoute()) {
  log('development: this Next.js spawns a process per request to a dynamic route (server/dev-static-paths.ts found nothing to wrap)');
}
const nextApp = next({ dev, dir: process.cwd(), hostname: 'localhost', port });
// The server listens before Next.js has prepared: the open API and the probes (/healthz, /readyz) answer at once;
// pages wait for Next.js.
const nextReady = nextApp.prepare().then(() => nextApp.getRequestHandler());
nextReady.catch(() => undefined); // a failure is thrown below, where start-up awaits it
const server = createAppServer({
  // Development's one WebSocket is Next.js's hot reload; any other upgrade offer (Java's and curl's h2c) is answered
  // over HTTP/1.1.
  acceptsUpgrade: dev ? DEVELOPMENT_SOCKETS : NO_UPGRADES,
  pages: async (req, res) => {
    stampPortalRequest(req);
    stampOwnWrites(req, res); // a back-office POST reads the primary, and so do its author's pages for a while
    const handleWithNext = await nextReady;
    return handleWithNext(req, res);
  },
});
const boundPort = await listen(server, port, host);
// The sandbox CLIs find the service there, whatever PORT their own environment has.
await recordServiceBaseUrl(getDb(), process.env.PUBLIC_BASE_URL ? publicBaseUrl() : `http://localhost:${boundPort}`);
await nextReady;
log(`ready: http://localhost:${boundPort} (${dev ? 'development' : 'production'})`);
if (dev && sandboxEnabled()) {
  const warmingSince = performance.now();
  // Each compile also tells open pages "[Fast Refresh] rebuilding"; the line says when that stops.
  void (await import('../lib/sandbox/warm-simulator-routes'))
    .warmSimulatorRoutes(`http://127.0.0.1:${boundPort}`)
    .then((count) => log(`sandbox simulators: ${count} routes compiled in ${((performance.now() - warmingSince) / 1000).toFixed(1)} s`));
}

/** How long shutdown waits for requests still being handled before closing the database under them. */
const SHUTDOWN_GRACE_MS = dev ? 3_000 : 10_000;
/** Past this, the process exits whatever is still pending: Ctrl-C must never leave a server holding the port. */
const SHUTDOWN_DEADLINE_MS = SHUTDOWN_GRACE_MS + 5_000;

let stopping = false;
async function shutdown(signal: string) {
  // Ctrl-C reaches every process of the terminal's group, and tsx forwards it too: one shutdown, however many signals.
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  setTimeout(() => {
    log(`${signal}: still stopping after ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting now`);
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  // No new connections; idle keep-alive ones close now. server.close() reports when the sockets are gone, which can
  // be before their handlers finish (a client that hung up): wait for the handlers before the pool ends under them.
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  if (!(await server.whenIdle(SHUTDOWN_GRACE_MS))) {
    log(`${signal}: ${server.inFlight} request(s) still running after ${SHUTDOWN_GRACE_MS / 1000} s; closing anyway`);
  }
  server.closeAllConnections();
  await closed;
  await workers?.stop();
  await devSandboxes?.close();
  await nextApp.close().catch(() => undefined);
  await closeReadDb(); // the replica's pool, when the back office read it
  await closeDb();
  // The embedded server runs in a session of its own, so the terminal's Ctrl-C never stopped it under the requests
  // above: it stops last, here.
  await database.embedded?.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
export {};
