/**
 * npm run bench:chain — the TRON watcher through a simulated mainnet hour, faster than real time: 30 USDT transfers a
 * second between strangers (and 190 other transactions a block, as mainnet's blocks weigh), our payments mixed in
 * (one every 10 s), one block in 200 reaching the node up to 60 s late, TronGrid's documented limits (15 requests a
 * second, 100,000 a day) enforced, and a 60 s storm of 429 with Retry-After half-way. The sandbox node runs in a
 * process of its own, so the CPU figure is the watcher's (and its database client's) alone. Prints requests per
 * simulated day, payments missed, final → credited latency p50/p99, CPU per block; then each EVM network's requests a
 * day at mainnet block timing (bench/evm-traffic.ts) and the EVM watcher's matching cost (bench/evm-chain.ts). BENCH_CHAIN_MINUTES shortens the hour. DATABASE_URL's server when set, else the embedded
 * server; works in a scratch database.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Clock } from '../lib/clock';
import { chainConfig, type ChainConfig } from '../lib/channels/usdt/chain/chain-config';
import { ChainEndpointPool } from '../lib/channels/usdt/chain/chain-endpoints';
import { TronGridClient } from '../lib/channels/usdt/chain/trongrid-client';
import { watchChainOnce } from '../lib/channels/usdt/chain/watch-chain';
import { closeDb, getDb } from '../lib/db/client';
import { resolveDatabase } from '../lib/db/connect';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { runTronTraffic } from '../test/tron-traffic-run';
import { createBenchDatabase, dropBenchDatabase } from './fixtures';
import { benchEvmChain } from './evm-chain';
import { benchEvmTraffic } from './evm-traffic';

const MINUTES = Number(process.env.BENCH_CHAIN_MINUTES ?? 60);
const PER_SECOND = 30;
const CONFIRM_MS = 57_000;

async function startSandboxNode(databaseUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/tron/serve-node.ts', '0'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SANDBOX_TRON_CONFIRM_MS: String(CONFIRM_MS), SANDBOX_TRON_OTHER_TX_PER_BLOCK: '190' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => { throw new Error('the sandbox node exited'); })])) as [Buffer];
  const url = /listening (\S+)/.exec(line.toString())?.[1];
  if (!url) throw new Error(`the sandbox node said ${line.toString()}`);
  return { url, stop: () => child.kill() };
}

const target = await resolveDatabase({ migrate: false });
const serverUrl = target.embedded?.serverUrl ?? target.url;
const databaseName = `bench_chain_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const scratchUrl = await createBenchDatabase(serverUrl, databaseName);
process.env.DATABASE_URL = scratchUrl;
let node: Awaited<ReturnType<typeof startSandboxNode>> | undefined;
try {
  await applyMigrations(scratchUrl);
  node = await startSandboxNode(scratchUrl);
  const db = getDb();
  const { merchant } = await createMerchant(db, { name: 'Bench merchant', orderPermission: true });
  const nodeUrl = `${node.url}/nodes/bench`;
  // The service's defaults, pointed at the sandbox node (CHAIN_POLL_MS and the rest as an operator leaves them).
  const config: ChainConfig = chainConfig({ NODE_ENV: 'test', TRONGRID_BASE_URLS: nodeUrl, TRONGRID_API_KEY: 'bench-key' });
  const startMs = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000;
  const payments = Array.from({ length: Math.floor((MINUTES * 60) / 10) }, (_, index) => ({ atMs: startMs + 20_000 + index * 10_000 + 700 }));
  let client: TronGridClient | undefined;
  console.error(`bench:chain: a simulated ${MINUTES}-minute mainnet stretch, ${PER_SECOND} transfers/s, ${payments.length} payments, polling every ${config.pollMs} ms…`);
  const started = performance.now();
  const figures = await runTronTraffic({
    db,
    nodeUrl,
    hookUrl: node.url,
    node: 'bench',
    startMs,
    minutes: MINUTES,
    perSecond: PER_SECOND,
    pollMs: config.pollMs,
    confirmMs: CONFIRM_MS,
    lateShare: 0.005,
    maxLateMs: 60_000,
    limits: { perSecond: 15, dailyQuota: 100_000 },
    storm: { atMs: startMs + (MINUTES * 60_000) / 2, seconds: 60, status: 429 },
    payments,
    merchantId: merchant.id,
    watch(clock: Clock) {
      client ??= new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, clock, config.endpointRetryMs), apiKey: config.apiKey });
      return watchChainOnce({ db, client, config, clock });
    },
  });
  const wallSeconds = (performance.now() - started) / 1000;
  console.log(`\nchain TRC20: ${MINUTES} simulated minutes in ${wallSeconds.toFixed(0)} s of real time (${((MINUTES * 60) / wallSeconds).toFixed(1)}× real time), ${figures.backgroundTransfers} background transfers, PostgreSQL ${target.embedded ? 'embedded' : 'server'}`);
  console.log(`  requests: ${figures.requests} in ${figures.polls} polls → ${figures.requestsPerDay.toLocaleString('en')} per simulated day (budget 30,000; TronGrid's quota 100,000); ${figures.requestsWhileBlocked} sent while blocked`);
  console.log(`  payments: ${figures.payments}, credited ${figures.credited}, missed ${figures.missed}, credited twice ${figures.duplicates}`);
  const seconds = (latency: typeof figures.latency) => `p50 ${latency.p50.toFixed(2)} s, p99 ${latency.p99.toFixed(2)} s, max ${latency.max.toFixed(2)} s`;
  console.log(`  final → credited, outside the storm: ${seconds(figures.calmLatency)} (poll ${config.pollMs / 1000} s: goal p50 ≤ ${config.pollMs / 1000} s, p99 ≤ ${(2 * config.pollMs) / 1000 + 1} s)`);
  console.log(`  final → credited, all payments: ${seconds(figures.latency)} (those final during the 60 s storm wait it out)`);
  console.log(`  watcher CPU: ${(figures.watcherCpuMs / figures.blocks).toFixed(2)} ms per block (${figures.blocks} blocks, ${PER_SECOND * 3} USDT + 190 other transactions each)`);
  await benchEvmTraffic(db); // each EVM network's requests a day at mainnet block timing
  await benchEvmChain(db); // the EVM watcher: blocks of 1,000 token transfers, matching cost against pool size
} finally {
  node?.stop();
  await closeDb();
  await dropBenchDatabase(serverUrl, databaseName);
  if (target.embedded?.startedHere) await target.embedded.stop();
}
