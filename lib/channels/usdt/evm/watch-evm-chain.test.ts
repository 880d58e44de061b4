import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../../db/client';
import { startSandboxEvm } from '../../../../sandbox/evm/sandbox-evm';
import { SANDBOX_EVM_CHAINS } from '../../../../sandbox/evm/sandbox-evm-chains';
import { CollectingEvmSink } from '../../../../test/collecting-evm-sink';
import { startRangeLimitedProxy } from '../../../../test/evm-range-limited-proxy';
import { centsToRaw, rawToExactCents } from './evm-amounts';
import type { EvmChainName } from './evm-chains';
import { evmSettings, type EvmChainSettings } from './evm-config';
import { EvmRpcPool } from './evm-rpc-pool';
import { resumeEvmChainAfterReorg } from './resume-after-reorg';
import { evmWatcherJob } from './evm-watcher-job';
import { loadEvmCursor, markEvmReorg } from './evm-cursor';
import { watchEvmChainOnce } from './watch-evm-chain';
import { freePorts } from '../../../../test/dev-server-process';

// Real ganache nodes on this suite's own ports; the watcher reaches them over HTTP JSON-RPC like any provider.
// Ports of their own on every run: a second run beside this one (CI's other database) takes others.
const [ERC20_PORT, BEP20_PORT, POLYGON_PORT, RATE_LIMITED_PORT, CLOSED_PORT, RANGE_LIMITED_PORT] = (await freePorts(6)) as [number, number, number, number, number, number];
const PORTS = { ERC20: ERC20_PORT, BEP20: BEP20_PORT, POLYGON: POLYGON_PORT };

let sandbox: Awaited<ReturnType<typeof startSandboxEvm>>;
let tooManyRequests: http.Server;
let refusedRequests = 0;

const anAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

function settingsFor(chain: EvmChainName, extra: Record<string, string> = {}): EvmChainSettings {
  const env: Record<string, string> = {
    USDT_EVM_CHAINS: chain,
    [`EVM_${chain}_RPC_URLS`]: sandbox.node(chain).rpcUrl,
    [`EVM_${chain}_CHAIN_ID`]: String(SANDBOX_EVM_CHAINS[chain].chainId),
    [`EVM_${chain}_TOKEN_CONTRACT`]: sandbox.node(chain).token,
    ...extra,
  };
  return evmSettings(env as NodeJS.ProcessEnv).chains[0]!;
}

function poolFor(settings: EvmChainSettings): EvmRpcPool {
  return new EvmRpcPool(settings.definition.name, settings.rpcUrls, { chainId: settings.chainId, rateLimitBackoffMs: 60_000 });
}

/** A fresh watcher process as far as the chain is concerned: new endpoint pool, state only from the database. */
const watch = (settings: EvmChainSettings, sink: CollectingEvmSink) => watchEvmChainOnce({ db: getDb(), settings, rpc: poolFor(settings), sink });

async function resetCursor(chain: EvmChainName) {
  await getDb().execute(sql`DELETE FROM evm_chain_cursors WHERE chain = ${chain}`);
}

beforeAll(async () => {
  sandbox = await startSandboxEvm({ ports: PORTS });
  tooManyRequests = http.createServer((_req, res) => {
    refusedRequests += 1;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '120' }).end('{"error":"rate limited"}');
  });
  await new Promise<void>((resolve) => tooManyRequests.listen(RATE_LIMITED_PORT, '127.0.0.1', resolve));
});
afterAll(async () => {
  await sandbox?.close();
  tooManyRequests?.close();
});

describe('the EVM watcher on a real node', () => {
  it('hands each final transfer to a receiving address over exactly once, across restarts', async () => {
    const settings = settingsFor('ERC20');
    const receiving = anAddress();
    const stranger = anAddress();
    const sink = new CollectingEvmSink().receive('ERC20', receiving);
    await watch(settings, sink); // first start: the cursor begins at the final head

    const paid = await sandbox.transfer('ERC20', receiving, '12.34');
    await sandbox.transfer('ERC20', stranger, '12.34');
    const first = await watch(settings, sink);
    expect(first.transfers).toBe(1);
    expect(sink.transfers).toEqual([
      expect.objectContaining({ chain: 'ERC20', transactionHash: paid.transactionHash, blockNumber: paid.blockNumber, to: receiving, raw: 12_340_000n }),
    ]);
    expect(sink.transfers[0]!.from).toBe(sandbox.node('ERC20').payer);

    expect((await watch(settings, sink)).transfers).toBe(0); // a restarted watcher resumes after its cursor
    const second = await sandbox.transfer('ERC20', receiving, '0.01');
    await watch(settings, sink);
    await watch(settings, sink);
    expect(sink.transfers.map((transfer) => transfer.transactionHash)).toEqual([paid.transactionHash, second.transactionHash]);
    const { rows } = await getDb().execute<{ block_number: string }>(sql`SELECT block_number FROM evm_chain_cursors WHERE chain = 'ERC20'`);
    expect(BigInt(rows[0]!.block_number)).toBe(await sandbox.node('ERC20').blockNumber());
  });

  it('matches 18-decimal BEP20 amounts exactly: raw = cents × 10^16, a sub-cent remainder matches no amount', async () => {
    const settings = settingsFor('BEP20', { EVM_BEP20_FINALITY: '2' });
    expect(settings.definition.decimals).toBe(18);
    const receiving = anAddress();
    const sink = new CollectingEvmSink().receive('BEP20', receiving);
    await watch(settings, sink);
    await sandbox.transfer('BEP20', receiving, '10.01');
    await sandbox.node('BEP20').transferRaw(receiving, centsToRaw(1001n, 18) + 1n);
    await watch(settings, sink);
    expect(sink.transfers).toEqual([]); // not yet 2 blocks deep
    await sandbox.node('BEP20').mine(2);
    await watch(settings, sink);
    expect(sink.transfers.map((transfer) => transfer.raw)).toEqual([10_010_000_000_000_000_000n, 10_010_000_000_000_000_001n]);
    expect(sink.transfers.map((transfer) => rawToExactCents(transfer.raw, 18))).toEqual([1001n, null]);
    expect(centsToRaw(1001n, 18)).toBe(1001n * 10n ** 16n);
  });

  it('never hands over a transfer from a block dropped by a re-org above the finality depth', async () => {
    await resetCursor('BEP20');
    const settings = settingsFor('BEP20', { EVM_BEP20_FINALITY: '3' });
    const node = sandbox.node('BEP20');
    const receiving = anAddress();
    const sink = new CollectingEvmSink().receive('BEP20', receiving);
    await node.mine(3);
    await watch(settings, sink);
    const snapshot = await node.snapshot();
    const dropped = await node.transfer(receiving, '5.00');
    await node.mine(1);
    expect((await watch(settings, sink)).transfers).toBe(0);
    await node.revert(snapshot); // the fork without the transfer wins
    await node.mine(6);
    const result = await watch(settings, sink);
    expect(result.cursor! > dropped.blockNumber).toBe(true);
    expect(result.reorg).toBeUndefined();
    expect(sink.transfers).toEqual([]);
    const kept = await node.transfer(receiving, '5.00');
    await node.mine(3);
    await watch(settings, sink);
    expect(sink.transfers.map((transfer) => transfer.transactionHash)).toEqual([kept.transactionHash]);
  });

  it('detects a re-org below the cursor, reports it, and holds the chain without handing anything over', async () => {
    const settings = settingsFor('POLYGON'); // the finalized tag: on ganache every mined block is final
    const node = sandbox.node('POLYGON');
    const receiving = anAddress();
    const sink = new CollectingEvmSink().receive('POLYGON', receiving);
    await watch(settings, sink);
    const snapshot = await node.snapshot();
    await node.transfer(receiving, '7.00');
    await watch(settings, sink);
    expect(sink.transfers).toHaveLength(1);
    const cursorBefore = (await getDb().execute<{ block_hash: string; block_number: string }>(sql`SELECT block_hash, block_number FROM evm_chain_cursors WHERE chain = 'POLYGON'`)).rows[0]!;

    await node.revert(snapshot);
    const onWinningFork = await node.transfer(receiving, '7.01'); // another block at the cursor's height, paying the same address
    await node.mine(2);
    const result = await watch(settings, sink);
    expect(result.reorg).toEqual({ chain: 'POLYGON', blockNumber: BigInt(cursorBefore.block_number), storedHash: cursorBefore.block_hash, nodeHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(result.reorg!.nodeHash).not.toBe(cursorBefore.block_hash);
    expect((await watch(settings, sink)).reorg).toBeDefined(); // held until an operator acts
    expect(sink.transfers).toHaveLength(1);
    expect(sink.reorgs).toHaveLength(2);
    const { rows } = await getDb().execute<{ reorg_detected_at: Date | null }>(sql`SELECT reorg_detected_at FROM evm_chain_cursors WHERE chain = 'POLYGON'`);
    expect(rows[0]!.reorg_detected_at).not.toBeNull();

    // The operator resumes below the fork: the winning chain's transfer is handed over, the dropped one never again.
    await resumeEvmChainAfterReorg(getDb(), 'POLYGON', poolFor(settings), BigInt(cursorBefore.block_number) - 1n);
    const resumed = await watch(settings, sink);
    expect(resumed.reorg).toBeUndefined();
    expect(sink.transfers.map((transfer) => transfer.raw)).toEqual([7_000_000n, 7_010_000n]);
    expect(sink.transfers[1]!.transactionHash).toBe(onWinningFork.transactionHash);
  });

  it('holds the chain only on the cursor a tick read: a tick that read it before an operator resumed does not hold it again', async () => {
    const settings = settingsFor('POLYGON');
    const sink = new CollectingEvmSink();
    await watch(settings, sink);
    const db = getDb();
    const nodeHash = `0x${'ab'.repeat(32)}`;
    const held = async () => (await db.execute<{ held: boolean }>(sql`SELECT reorg_detected_at IS NOT NULL AS held FROM evm_chain_cursors WHERE chain = 'POLYGON'`)).rows[0]!.held;

    // Read while held; the operator then clears the hold at the same block.
    await db.execute(sql`UPDATE evm_chain_cursors SET reorg_detected_at = now() WHERE chain = 'POLYGON'`);
    const readWhileHeld = (await loadEvmCursor(db, 'POLYGON'))!;
    await db.execute(sql`UPDATE evm_chain_cursors SET reorg_detected_at = NULL, reorg_node_hash = NULL WHERE chain = 'POLYGON'`);
    expect(await markEvmReorg(db, 'POLYGON', readWhileHeld, nodeHash)).toBe(false);
    expect(await held()).toBe(false);

    // Read before the operator resumed a block lower.
    const readBeforeResume = (await loadEvmCursor(db, 'POLYGON'))!;
    await resumeEvmChainAfterReorg(db, 'POLYGON', poolFor(settings), readBeforeResume.blockNumber - 1n);
    expect(await markEvmReorg(db, 'POLYGON', readBeforeResume, nodeHash)).toBe(false);
    expect(await held()).toBe(false);

    // Read as it stands: held, and the next tick reports it.
    const current = (await loadEvmCursor(db, 'POLYGON'))!;
    expect(await markEvmReorg(db, 'POLYGON', current, nodeHash)).toBe(true);
    expect(await held()).toBe(true);
    expect((await watch(settings, sink)).reorg).toBeDefined();
    await resumeEvmChainAfterReorg(db, 'POLYGON', poolFor(settings), current.blockNumber);
    expect((await watch(settings, sink)).reorg).toBeUndefined();
  });

  it('fails over to the next endpoint when the first answers 429 or refuses the connection, and rests the rate-limited one', async () => {
    await resetCursor('ERC20');
    const urls = [`http://127.0.0.1:${RATE_LIMITED_PORT}`, `http://127.0.0.1:${CLOSED_PORT}`, sandbox.node('ERC20').rpcUrl];
    const settings = settingsFor('ERC20', { EVM_ERC20_RPC_URLS: urls.join(',') });
    const rpc = new EvmRpcPool('ERC20', settings.rpcUrls, { chainId: settings.chainId, rateLimitBackoffMs: 1000 });
    const receiving = anAddress();
    const sink = new CollectingEvmSink().receive('ERC20', receiving);
    await watchEvmChainOnce({ db: getDb(), settings, rpc, sink });
    const sent = await sandbox.transfer('ERC20', receiving, '3.21');
    const before = refusedRequests;
    await watchEvmChainOnce({ db: getDb(), settings, rpc, sink });
    expect(sink.transfers.map((transfer) => transfer.transactionHash)).toEqual([sent.transactionHash]);
    expect(refusedRequests).toBe(before); // resting for its Retry-After (120 s): not asked again
    const health = rpc.health();
    expect(health[0]!.restingUntil).toBeGreaterThan(Date.now() + 100_000);
    expect(health[0]!.lastError).toMatch(/HTTP request failed/);
    expect(health[1]!.restingUntil).toBeNull();
    expect(health[1]!.lastError).toBeTruthy();
    expect(health[2]!.lastError).toBeNull();
  });

  it('tells equal amounts on two chains apart, and refuses an endpoint that serves another chain', async () => {
    await resetCursor('ERC20');
    await resetCursor('POLYGON');
    const ethereum = settingsFor('ERC20');
    const polygon = settingsFor('POLYGON');
    const receiving = anAddress();
    const sink = new CollectingEvmSink().receive('ERC20', receiving).receive('POLYGON', receiving);
    await watch(ethereum, sink);
    await watch(polygon, sink);
    const onEthereum = await sandbox.transfer('ERC20', receiving, '25.00');
    const onPolygon = await sandbox.transfer('POLYGON', receiving, '25.00');
    await watch(ethereum, sink);
    await watch(polygon, sink);
    expect(sink.transfers.map(({ chain, transactionHash, raw }) => ({ chain, transactionHash, raw }))).toEqual([
      { chain: 'ERC20', transactionHash: onEthereum.transactionHash, raw: 25_000_000n },
      { chain: 'POLYGON', transactionHash: onPolygon.transactionHash, raw: 25_000_000n },
    ]);

    const misrouted = settingsFor('ERC20', { EVM_ERC20_RPC_URLS: sandbox.node('POLYGON').rpcUrl });
    await expect(watch(misrouted, sink)).rejects.toThrow(/serves chain id 31137, not 31001/);
  });

  it('runs every enabled chain in one job: a chain whose endpoints fail does not keep the others from being read', async () => {
    await resetCursor('ERC20');
    await resetCursor('BEP20');
    const env = { ...sandbox.serviceSettings(), USDT_EVM_CHAINS: 'ERC20,BEP20', EVM_BEP20_RPC_URLS: `http://127.0.0.1:${CLOSED_PORT}/v3/0123456789abcdef0123456789abcdef`, EVM_BEP20_FINALITY: '1', EVM_POLL_MS: '500' };
    const receiving = anAddress();
    const sink = new CollectingEvmSink().receive('ERC20', receiving);
    const job = evmWatcherJob(sink, evmSettings(env as Record<string, string> as NodeJS.ProcessEnv));
    const lines: string[] = [];
    // Each reading of the clock is a second later: every chain is due on every run, whatever its own poll.
    let elapsedMs = 0;
    const context = { db: getDb(), clock: { now: () => new Date(Date.now() + (elapsedMs += 1000)) }, log: (line: string) => lines.push(line) };
    await expect(job.run(context)).rejects.toThrow(/^EVM watcher: BEP20: no JSON-RPC endpoint answered/);
    const sent = await sandbox.transfer('ERC20', receiving, '9.99');
    await expect(job.run(context)).rejects.toThrow(/BEP20/);
    expect(sink.transfers.map((transfer) => transfer.transactionHash)).toEqual([sent.transactionHash]);
    expect(lines.join('\n')).toContain('evm ERC20: 1 final transfer(s)');
    expect(lines.join('\n')).toContain('evm BEP20: no JSON-RPC endpoint answered');
    expect(lines.join('\n')).toContain(`http://127.0.0.1:${CLOSED_PORT}/v3/0123…`); // the key in the path is never logged
    expect(lines.join('\n')).not.toContain('0123456789abcdef0123456789abcdef');
  });

  it('narrows its eth_getLogs ranges when the provider says a range returns too much, and misses nothing', async () => {
    await resetCursor('ERC20');
    const proxy = await startRangeLimitedProxy(sandbox.node('ERC20').rpcUrl, RANGE_LIMITED_PORT, 2);
    try {
      const settings = settingsFor('ERC20', { EVM_ERC20_RPC_URLS: proxy.url, EVM_ERC20_LOG_RANGE: '8' });
      const receiving = anAddress();
      const sink = new CollectingEvmSink().receive('ERC20', receiving);
      await watch(settings, sink);
      const sent = [];
      for (const amount of ['1.01', '1.02', '1.03', '1.04', '1.05']) sent.push(await sandbox.transfer('ERC20', receiving, amount));
      const result = await watch(settings, sink);
      expect(result.cursor).toBe(await sandbox.node('ERC20').blockNumber());
      expect(sink.transfers.map((transfer) => transfer.transactionHash)).toEqual(sent.map((transfer) => transfer.transactionHash));
      expect(proxy.ranges.filter((range) => range.refused).length).toBeGreaterThan(0);
      expect(proxy.ranges.filter((range) => !range.refused).every((range) => range.to - range.from + 1 <= 2)).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
