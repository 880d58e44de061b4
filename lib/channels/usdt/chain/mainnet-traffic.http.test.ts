import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../clock';
import { getDb } from '../../../db/client';
import { startTestApp, type TestApp } from '../../../../test/open-api-client';
import { serveWebHandler } from '../../../../test/web-handler-server';
import { aMerchant } from '../../../../test/factories';
import { runTronTraffic, type TrafficRunOptions } from '../../../../test/tron-traffic-run';
import { handleSandboxTron } from '../../../../sandbox/tron/http-api';
import { chainConfig } from './chain-config';
import { ChainEndpointPool } from './chain-endpoints';
import { TronGridClient } from './trongrid-client';
import { watchChainOnce } from './watch-chain';

/**
 * The TRON watcher at mainnet traffic, on the sandbox node driven by a simulated clock: 30 USDT transfers a second
 * between strangers, our payments among them, blocks that reach the node late, TronGrid's documented limits
 * (15 requests a second, 100,000 a day) and storms of 403/429. The watcher runs with the service's default settings.
 */
let app: TestApp;
let chain: Awaited<ReturnType<typeof serveWebHandler>>;
let merchantId: number;
const CONFIRM_MS = 57_000; // TRON solidifies a block about 19 blocks (57 s) after it
const DAY_BUDGET = 30_000;

beforeAll(async () => {
  process.env.SANDBOX_TRON_CONFIRM_MS = String(CONFIRM_MS);
  app = await startTestApp();
  chain = await serveWebHandler(handleSandboxTron, '/sandbox/tron');
  merchantId = (await aMerchant({ wholePool: true })).id;
});
afterAll(async () => {
  process.env.SANDBOX_TRON_CONFIRM_MS = '0';
  await chain?.close();
  await app?.close();
});

let hour = 0;
function run(options: Partial<TrafficRunOptions> & Pick<TrafficRunOptions, 'payments' | 'startMs'>) {
  const node = `traffic${hour}`;
  const nodeUrl = `${chain.url}/nodes/${node}`;
  // The service's defaults (CHAIN_POLL_MS, CHAIN_ENDPOINT_RETRY_MS…), pointed at the sandbox node.
  const config = { ...chainConfig({ NODE_ENV: 'test', TRONGRID_BASE_URLS: nodeUrl, TRONGRID_API_KEY: 'test-key' }) };
  let client: TronGridClient | undefined;
  return runTronTraffic({
    db: getDb(),
    nodeUrl,
    hookUrl: chain.url,
    node,
    minutes: 10,
    perSecond: 30,
    pollMs: config.pollMs,
    confirmMs: CONFIRM_MS,
    lateShare: 0.005,
    maxLateMs: 60_000,
    limits: { perSecond: 15, dailyQuota: 100_000 },
    merchantId,
    watch(clock: Clock) {
      client ??= new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, clock, config.endpointRetryMs), apiKey: config.apiKey });
      return watchChainOnce({ db: getDb(), client, config, clock });
    },
    ...options,
  });
}

/** A simulated stretch of its own for each test, days ago, so that their ledgers never overlap. */
function nextStart(): number {
  hour += 1;
  return Math.floor(Date.now() / 3_600_000) * 3_600_000 - 10 * 86_400_000 + hour * 2 * 3_600_000;
}

const every = (startMs: number, seconds: number, count: number) => Array.from({ length: count }, (_, index) => ({ atMs: startMs + 30_000 + index * seconds * 1000 + 700 }));

describe('the TRON watcher at mainnet traffic (30 transfers a second), default settings', () => {
  it('stays within 30,000 TronGrid requests a day and misses no payment', async () => {
    const startMs = nextStart();
    const figures = await run({ startMs, payments: every(startMs, 20, 25) });
    if (process.env.TRAFFIC_FIGURES) console.log(JSON.stringify(figures));
    expect(figures.backgroundTransfers).toBeGreaterThan(10 * 60 * 30);
    expect(figures.missed).toBe(0);
    expect(figures.duplicates).toBe(0);
    expect(figures.requestsPerDay).toBeLessThanOrEqual(DAY_BUDGET);
    // p50 within one poll, p99 within two polls and a second, from the block being final at the node.
    expect(figures.latency.p50).toBeLessThanOrEqual(3);
    expect(figures.latency.p99).toBeLessThanOrEqual(7);
  }, 120_000);

  it('credits a payment whose block reaches the node 45 s late, once, within the budget', async () => {
    const startMs = nextStart();
    const payments = [...every(startMs, 30, 10), { atMs: startMs + 150_500, indexDelayMs: 45_000 }];
    const figures = await run({ startMs, payments, lateShare: 0 });
    if (process.env.TRAFFIC_FIGURES) console.log(JSON.stringify(figures));
    expect(figures.missed).toBe(0);
    expect(figures.duplicates).toBe(0);
    const { rows } = await getDb().execute<{ verdict: string; count: number }>(sql`
      SELECT verdict, count(*)::int AS count FROM chain_transfers t JOIN orders o ON o.id = t.order_id
      WHERE o.merchant_order_no = ${`traffic-${startMs}-${payments.length - 1}`} GROUP BY verdict`);
    expect(rows).toEqual([{ verdict: 'matched', count: 1 }]);
    expect(figures.requestsPerDay).toBeLessThanOrEqual(DAY_BUDGET);
  }, 120_000);

  it('a 429 storm with Retry-After delays payments but loses none, and no request goes out while it lasts', async () => {
    const startMs = nextStart();
    const figures = await run({ startMs, payments: every(startMs, 15, 36), storm: { atMs: startMs + 180_000, seconds: 120, status: 429 } });
    if (process.env.TRAFFIC_FIGURES) console.log(JSON.stringify(figures));
    expect(figures.missed).toBe(0);
    expect(figures.duplicates).toBe(0);
    expect(figures.requestsWhileBlocked).toBe(0);
    expect(figures.latency.max).toBeGreaterThanOrEqual(60); // the storm held some payments back…
    // …and once it is over the watcher catches up at once (two polls and a second), within the budget and the node's
    // 15 requests a second (a burst past them would be suspended for 30 s more).
    expect(figures.latency.max).toBeLessThanOrEqual(120 + 2 * 3 + 1);
    expect(figures.latency.p50).toBeLessThanOrEqual(3); // the payments outside it were not held back
    expect(figures.requestsPerDay).toBeLessThanOrEqual(DAY_BUDGET);
  }, 120_000);
});
