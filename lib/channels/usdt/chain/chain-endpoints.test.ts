import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../clock';
import { getDb } from '../../../db/client';
import { receivingAddresses } from '../../../../test/factories';
import { serveWebHandler } from '../../../../test/web-handler-server';
import { untilSlotCloses } from '../../../../test/tron-watch-bed';
import { sendSandboxTransfer } from '../../../../sandbox/tron/ledger';
import { handleSandboxTron } from '../../../../sandbox/tron/http-api';
import { systemClock } from '../../../clock';
import { USDT_TRC20_CONTRACT } from './chain-config';
import { blockDurationMs, ChainEndpointPool } from './chain-endpoints';
import { tronGridEndpointHealth } from './endpoint-health';
import { chainWatcherJob } from './chain-jobs';
import { TronGridClient } from './trongrid-client';
import { watchChainOnce } from './watch-chain';

process.env.SANDBOX_TRON_CONFIRM_MS = '0';
const API_KEY = 'tg-key-5f1c2a9e';

let chain: Awaited<ReturnType<typeof serveWebHandler>>;
let address: string;
const lines: string[] = [];
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  chain = await serveWebHandler(handleSandboxTron, '/sandbox/tron');
  [address] = (await receivingAddresses(1)) as [string];
});
afterAll(() => chain.close());
afterEach(() => {
  offsetMs = 0;
  delete process.env.CHAIN_ENDPOINT_RETRY_MS;
});

const node = (name: string) => `${chain.url}/nodes/${name}`;

/** The sandbox's test hook: makes a node rate-limited or down (`{}` heals it), and reports what the node saw. */
async function fault(name: string, body?: unknown) {
  const response = await fetch(`${node(name)}/fault`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as { requests: number; requestsWhileBlocked: number; requestsWithApiKey: number; blockedUntil: string | null };
}

/** One run of the production job, configured the way an operator configures it. */
async function runWatcher(endpoints: string[]) {
  process.env.TRONGRID_BASE_URLS = endpoints.join(',');
  process.env.TRONGRID_API_KEY = API_KEY;
  try {
    await chainWatcherJob.run({ db: getDb(), clock, log: (line) => lines.push(line) });
  } finally {
    delete process.env.TRONGRID_BASE_URLS;
    delete process.env.TRONGRID_API_KEY;
  }
}

async function recorded(transactionId: string): Promise<boolean> {
  const { rows } = await getDb().execute(sql`SELECT 1 FROM chain_transfers WHERE transaction_id = ${transactionId}`);
  return rows.length === 1;
}

async function health(endpoints: string[]) {
  return tronGridEndpointHealth(getDb(), clock.now(), endpoints);
}

describe('several TronGrid endpoints with failover', () => {
  it('one endpoint down delays nothing: the next one answers in the same tick, and the first is probed back to health', async () => {
    const [a, b] = [node('down-a'), node('down-b')];
    await fault('down-a', { down: true });
    await fault('down-b', {});
    const transfer = await sendSandboxTransfer(getDb(), { to: address, amount: '1.5' });
    await untilSlotCloses(); // its block is final once its slot has closed
    await runWatcher([a, b]);
    expect(await recorded(transfer.transactionId)).toBe(true);
    const [first, second] = await health([a, b]);
    expect(first).toMatchObject({ status: 'failing', lastError: expect.stringContaining('HTTP 502') });
    expect(first!.failingSince).toBeInstanceOf(Date);
    expect(second).toMatchObject({ status: 'ok', lastError: null });
    const seen = await fault('down-b');
    expect(seen.requests).toBeGreaterThanOrEqual(2); // the solidified height (first start) and the blocks
    expect(seen.requestsWithApiKey).toBe(seen.requests); // TRON-PRO-API-KEY on every request

    // The first endpoint comes back: once it has rested (CHAIN_ENDPOINT_RETRY_MS) a probe finds it healthy again.
    await fault('down-a', {});
    process.env.CHAIN_ENDPOINT_RETRY_MS = '0';
    await runWatcher([a, b]);
    expect((await health([a, b]))[0]).toMatchObject({ status: 'ok', failingSince: null });
  });

  it("a 403 with TronGrid's 30 s block is honoured whole: no request reaches the endpoint until the block ends", async () => {
    const [a, b] = [node('block-a'), node('block-b')];
    await fault('block-a', { rateLimit: { status: 403, blockSeconds: 30 } });
    await fault('block-b', {});
    const transfer = await sendSandboxTransfer(getDb(), { to: address, amount: '2.5' });
    await untilSlotCloses(); // its block is final once its slot has closed
    const before = Date.now();
    await runWatcher([a, b]);
    const after = Date.now();
    expect(await recorded(transfer.transactionId)).toBe(true);
    const [blocked] = await health([a, b]);
    expect(blocked).toMatchObject({ status: 'blocked', lastError: expect.stringContaining('suspended for 30s') });
    expect(blocked!.blockedUntil!.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    expect(blocked!.blockedUntil!.getTime()).toBeLessThanOrEqual(after + 30_000);

    await runWatcher([a, b]);
    offsetMs = 29_000; // near the end of the block, as the watcher's clock sees it
    await runWatcher([a, b]);
    const seen = await fault('block-a');
    expect(seen.requests).toBe(1);
    expect(seen.requestsWhileBlocked).toBe(0);
    expect(seen.blockedUntil).not.toBeNull();
  });

  it('a 429 blocks for its Retry-After, after which the endpoint is used again', async () => {
    const [a, b] = [node('retry-a'), node('retry-b')];
    await fault('retry-a', { rateLimit: { status: 429, blockSeconds: 2 } });
    await runWatcher([a, b]);
    const [blocked] = await health([a, b]);
    expect(blocked).toMatchObject({ status: 'blocked', lastError: expect.stringContaining('HTTP 429') });
    await runWatcher([a, b]);
    expect((await fault('retry-a')).requestsWhileBlocked).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 2100));
    await runWatcher([a, b]);
    expect((await health([a, b]))[0]).toMatchObject({ status: 'ok', blockedUntil: null });
    expect((await fault('retry-a')).requestsWhileBlocked).toBe(0);
  });

  it('with every endpoint blocked the tick fails saying until when, asks nobody meanwhile, and never shows the key', async () => {
    const only = node('alone');
    await fault('alone', { rateLimit: { status: 403, blockSeconds: 30 } });
    await expect(runWatcher([only])).rejects.toThrow(/no TronGrid endpoint answered: .*HTTP 403/);
    const failure = await runWatcher([only]).catch((error: Error) => error);
    expect(String(failure)).toContain('every endpoint is rate-limited until');
    expect((await fault('alone')).requests).toBe(1);

    const { rows } = await getDb().execute<{ text: string }>(sql`SELECT row_to_json(e)::text AS text FROM chain_endpoints e`);
    for (const text of [...rows.map((row) => row.text), ...lines, String(failure)]) expect(text).not.toContain(API_KEY);
  });
});

describe('catching up across endpoints', () => {
  it('an endpoint failing mid-catch-up: the next range is read from the next one, and nothing is skipped', async () => {
    const [a, b] = [node('pin-a'), node('pin-b')];
    await fault('pin-a', {});
    await fault('pin-b', {});
    const [target] = (await receivingAddresses(1)) as [string];
    for (let index = 0; index < 450; index += 1) await sendSandboxTransfer(getDb(), { to: target, amount: `0.0${(index % 9) + 1}` });
    await untilSlotCloses();
    // Two minutes behind: more blocks than one request holds.
    await getDb().execute(sql`UPDATE chain_cursors SET block_number = block_number - 40 WHERE block_number IS NOT NULL`);
    const requests: string[] = [];
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      requests.push(url);
      const response = await fetch(url, init);
      // The first endpoint goes down right after answering its first range.
      if (url.startsWith(`${a}/walletsolidity/getblockbylimitnext`)) await fault('pin-a', { down: true });
      return response;
    }) as typeof fetch;
    const endpoints = ChainEndpointPool.transient([a, b], systemClock);
    const config = { baseUrls: [a, b], contract: USDT_TRC20_CONTRACT, pollMs: 1000, initialLookbackMs: 3_600_000, endpointRetryMs: 60_000, access: 'sandbox' as const };
    const result = await watchChainOnce({ db: getDb(), clock: systemClock, config, client: new TronGridClient({ endpoints, fetchImpl }) });

    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM chain_transfers WHERE to_address = ${target}`);
    expect(rows[0]!.count).toBe(450);
    expect(result.blocks).toBeGreaterThan(20);
    expect(requests.filter((url) => url.startsWith(`${a}/`))).toHaveLength(2); // its first range, then the refusal
    expect(requests.some((url) => url.startsWith(`${b}/`))).toBe(true);
    const [first, second] = endpoints.snapshot();
    expect(first!.failingSince).not.toBeNull();
    expect(second).toMatchObject({ failingSince: null, lastError: null });
  });
});

describe('block duration of a refusal', () => {
  it("reads Retry-After (seconds or a date), else TronGrid's 'suspended for Ns', else 30 s", () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(blockDurationMs('12', '', now)).toBe(12_000);
    expect(blockDurationMs('Mon, 23 Nov 2026 12:01:00 GMT', '', now)).toBe(60_000);
    expect(blockDurationMs(null, '{"Error":"The key exceeds the frequency limit(15), and the query server is suspended for 45s"}', now)).toBe(45_000);
    expect(blockDurationMs(null, 'Too Many Requests', now)).toBe(30_000);
  });
});
