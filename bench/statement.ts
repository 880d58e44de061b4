/**
 * `npm run bench:statement`: does a statement export stall everyone else? The production build (`npm run build` first
 * when there is none, or BENCH_BUILD=1) on its own database, with BENCH_MERCHANTS (4) merchants of BENCH_ORDERS
 * (100,000) orders each. The open API's order query is measured first alone, then while every merchant downloads its
 * statement of the year at once; prints p50/p99/max of the queries in both phases, how long each export took, and the
 * goal: p99 while the exports run at most 2x the idle p99. A second download by a merchant whose export is still
 * running is tried too, and its answer printed.
 *
 *   BENCH_ORDERS=1000,10000,100000   orders per merchant, one round each
 *   BENCH_MERCHANTS=4                merchants exporting at once
 *   BENCH_QUERY_CLIENTS=4            concurrent open-API clients, each sending its next query when the last is answered
 *   BENCH_IDLE_SECONDS=5             length of the idle phase
 *   BENCH_PORT=3462                  the service's port
 *   DATABASE_URL                     server to create the bench database on (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_STRICT=1                   exit 1 when the goal is missed
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { portalSessionToken } from '../test/portal-session-token';
import { sql } from 'drizzle-orm';
import { createAccount } from '../lib/accounts/accounts';
import { createDatabase } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { createBenchDatabase, dropBenchDatabase, isSuccess, QUERY_PATH, signedBody } from './fixtures';
import { runToEnd, startServiceProcess, stopService } from './service-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ORDER_COUNTS = (process.env.BENCH_ORDERS ?? '1000,10000,100000').split(',').map((text) => Number(text.trim()));
const MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 4);
const QUERY_CLIENTS = Number(process.env.BENCH_QUERY_CLIENTS ?? 4);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3462);
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SESSION_SECRET = randomBytes(32).toString('base64url');
// The merchants' AppSecrets are encrypted by this process (the seed) and read by the service: one key for both.
process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString('hex');
const P99_GOAL_FACTOR = 2;

const log = (line: string) => process.stderr.write(`${line}\n`);
const out = (line = '') => process.stdout.write(`${line}\n`);

let server: ChildProcess | undefined;
const cleanups: (() => Promise<void>)[] = [];

interface Exporter {
  appId: string;
  appSecret: string;
  cookie: string;
  merchantOrderNo: string;
}

/** Migrations, MERCHANTS merchants with a portal account each and `orders` paid orders each over the last 300 days. */
async function seed(url: string, orders: number): Promise<Exporter[]> {
  await applyMigrations(url);
  const db = createDatabase(url, 4);
  try {
    const exporters: Exporter[] = [];
    for (let index = 0; index < MERCHANTS; index += 1) {
      const { merchant, appSecret } = await createMerchant(db, { name: `statement bench ${index}`, orderPermission: true });
      const account = await createAccount(db, { email: `bench${index}@statement.example`, password: randomBytes(12).toString('hex'), role: 'merchant', merchantId: merchant.id });
      const token = await portalSessionToken(db, { id: account.id, role: 'merchant' }, SESSION_SECRET);
      await db.execute(sql`
        INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor,
                            pay_method, notify_url, pay_token, expires_at, paid_at, created_at, updated_at, paid_via, trade_no, product_name)
        SELECT 'ST' || ${merchant.id}::text || '-' || g, ${merchant.id}, 'SB-' || g, 'ALIPAY', 'paid', 'CNY', 100 + g, 100 + g,
               'native', 'https://merchant.example/notify', md5(${merchant.id}::text || '-' || g), created_at + interval '30 minutes',
               created_at + interval '2 minutes', created_at, created_at, 'seed', 'T' || ${merchant.id}::text || '-' || g, 'Order, "quoted" ' || g
        FROM (SELECT g, now() - make_interval(secs => 3600 + (g::bigint * 7919) % 25920000) AS created_at FROM generate_series(1, ${orders}) AS g) AS s`);
      exporters.push({ appId: merchant.appId, appSecret, cookie: `next-auth.session-token=${token}`, merchantOrderNo: 'SB-1' });
    }
    await db.execute(sql`ANALYZE`);
    return exporters;
  } finally {
    await db.$client.end();
  }
}

async function waitUntilAnswers(baseUrl: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`the service exited (${server.exitCode}) before answering`);
    try {
      if ((await fetch(`${baseUrl}/portal/sign-in`)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${baseUrl} did not answer within ${timeoutMs / 1000} s`);
}

async function startService(databaseUrl: string): Promise<string> {
  const baseUrl = `http://127.0.0.1:${PORT}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    PUBLIC_BASE_URL: baseUrl,
    ALLOW_HTTP_PUBLIC_BASE_URL: 'true',
    NEXTAUTH_SECRET: SESSION_SECRET,
    WORKERS: 'off',
  };
  server = startServiceProcess(ROOT, 'dist/cli/serve.js', env);
  await waitUntilAnswers(baseUrl);
  return baseUrl;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: QUERY_CLIENTS });

function postOnce(baseUrl: string, body: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${QUERY_PATH}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ ms: performance.now() - started, ok: isSuccess(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')) }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** QUERY_CLIENTS clients querying back to back until `until` resolves; the latencies of the answered queries. */
async function queryLoad(baseUrl: string, body: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  let failures = 0;
  await Promise.all(
    Array.from({ length: QUERY_CLIENTS }, async () => {
      while (!done) {
        const { ms, ok } = await postOnce(baseUrl, body);
        if (ok) latencies.push(ms);
        else failures += 1;
      }
    }),
  );
  if (failures > 0) throw new Error(`${failures} queries failed`);
  return latencies;
}

/** One statement download with curl (another process: the bench's own event loop stays free for the queries). */
function download(baseUrl: string, exporter: Exporter, from: string, to: string, maxSeconds = 600): Promise<{ status: number; bytes: number; seconds: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = `${baseUrl}/portal/statement?from=${from}&to=${to}`;
    const curl = spawn('curl', ['-s', '--max-time', String(maxSeconds), '-o', '-', '-w', '\n%{http_code} %{size_download} %{time_total}', '-H', `cookie: ${exporter.cookie}`, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    curl.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    curl.on('error', reject);
    curl.on('exit', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [status, bytes, seconds] = text.slice(text.lastIndexOf('\n') + 1).split(' ').map(Number);
      resolve({ status: status!, bytes: bytes!, seconds: seconds!, body: text.slice(0, 200) });
    });
  });
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function round(orders: number): Promise<boolean> {
  const name = `bench_statement_${Date.now()}`;
  const url = await createBenchDatabase(SERVER_URL, name);
  cleanups.push(() => dropBenchDatabase(SERVER_URL, name));
  log(`bench: seeding ${MERCHANTS} merchants x ${orders} orders`);
  const exporters = await seed(url, orders);
  const baseUrl = await startService(url);
  try {
    const querier = exporters[0]!;
    const body = signedBody({ appId: querier.appId, merchantOrderNo: querier.merchantOrderNo, payType: 'ALIPAY' }, querier.appSecret);
    await queryLoad(baseUrl, body, new Promise((resolve) => setTimeout(resolve, 1000))); // warm-up
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    await download(baseUrl, exporters[0]!, to, to); // compiles nothing in production, but loads the route's modules
    const idle = summary(await queryLoad(baseUrl, body, new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))));
    const started = performance.now();
    const exports = Promise.all(exporters.map((exporter) => download(baseUrl, exporter, from, to)));
    const busyLatencies = await queryLoad(baseUrl, body, exports);
    const results = await exports;
    const wall = (performance.now() - started) / 1000;
    // Then a merchant asks again while its own export is still running (cut at 5 s if it streams too).
    const first = download(baseUrl, exporters[0]!, from, to);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const secondResult = await download(baseUrl, exporters[0]!, from, to, 5);
    await first;
    const busy = summary(busyLatencies);
    const factor = busy.p99 / idle.p99;
    out(`orders per merchant: ${orders}, ${MERCHANTS} exports at once, ${QUERY_CLIENTS} query clients`);
    out(`  open-API query idle:            p50 ${ms(idle.p50)}  p99 ${ms(idle.p99)}  max ${ms(idle.max)}  (${idle.count} queries)`);
    out(`  open-API query during exports:  p50 ${ms(busy.p50)}  p99 ${ms(busy.p99)}  max ${ms(busy.max)}  (${busy.count} queries)`);
    out(`  exports: ${results.map((result) => `${result.status} ${(result.bytes / 1e6).toFixed(1)} MB ${result.seconds.toFixed(1)} s`).join('; ')}; all done in ${wall.toFixed(1)} s`);
    out(`  a second export of the same merchant meanwhile: HTTP ${secondResult.status}, ${secondResult.bytes} bytes in ${secondResult.seconds.toFixed(1)} s${secondResult.status === 200 ? '' : `: ${JSON.stringify(secondResult.body.split('\n')[0])}`}`);
    const met = factor <= P99_GOAL_FACTOR;
    out(`  goal p99 during exports <= ${P99_GOAL_FACTOR}x idle: ${factor.toFixed(2)}x ${met ? 'met' : 'MISSED'}`);
    out();
    return met;
  } finally {
    stopService();
    await new Promise((resolve) => server?.once('exit', resolve) ?? resolve(undefined));
    server = undefined;
  }
}

async function main() {
  if (process.env.BENCH_BUILD === '1' || !existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
    log('bench: building (`npm run build`)');
    const code = await runToEnd(ROOT, 'npm', ['run', 'build'], { ...process.env, NEXT_TELEMETRY_DISABLED: '1' });
    if (code !== 0) throw new Error(`npm run build failed (exit ${code})`);
  }
  let allMet = true;
  try {
    for (const orders of ORDER_COUNTS) allMet = (await round(orders)) && allMet;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`bench: cleanup failed: ${String(error)}`));
  }
  if (process.env.BENCH_STRICT === '1' && !allMet) process.exitCode = 1;
}

await main();
