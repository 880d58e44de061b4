/**
 * The EVM watcher's matching cost against the size of the receiving-address pool: blocks of 1,000 USDT Transfer
 * events each (10% to pool addresses, the rest to strangers) on a real sandbox node (ganache), read by the watcher
 * over JSON-RPC with 1,000 and then 10,000 receiving addresses in the pool. Matching is one indexed lookup of a range's
 * recipients; the baseline, written for this bench, checks every pool address against every transfer.
 * `benchEvmChain(db)` is what `npm run bench:chain` calls; run alone with `npm run bench:chain:evm`.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { evmSettings } from '../lib/channels/usdt/evm/evm-config';
import { EvmRpcPool } from '../lib/channels/usdt/evm/evm-rpc-pool';
import { receivingAddressesAmong } from '../lib/channels/usdt/evm/receiving-address-lookup';
import { watchEvmChainOnce, type EvmTransfer, type EvmTransferSink } from '../lib/channels/usdt/evm/watch-evm-chain';
import type { Database } from '../lib/db/client';
import { startSandboxEvmNode } from '../sandbox/evm/evm-node';
import { SANDBOX_EVM_CHAINS } from '../sandbox/evm/sandbox-evm-chains';

const TRANSFERS_PER_BLOCK = 1_000;
const POOL_SIZES = [1_000, 10_000];
const POOL_SHARE = 0.1;
const PASSES = 3;

export interface EvmBenchFigures {
  poolSize: number;
  transfers: number;
  matched: number;
  matchingMicrosPerTransfer: number;
  baselineMicrosPerTransfer: number;
  watcherMicrosPerTransfer: number;
}

const anAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** The straightforward way: for every receiving address, look through the range's transfers for ones paying it. */
function baselineMatch(pool: readonly string[], recipients: readonly string[]): number {
  let matched = 0;
  for (const address of pool) for (const recipient of recipients) if (recipient === address) matched += 1;
  return matched;
}

async function addToPool(db: Database, addresses: readonly string[]): Promise<void> {
  await db.execute(sql`INSERT INTO receiving_addresses (chain, address) SELECT 'ERC20', unnest(${sql.raw(`ARRAY['${addresses.join("','")}']`)}::text[])`);
}

export async function benchEvmChain(db: Database, options: { blocks?: number; port?: number; log?: (line: string) => void } = {}): Promise<EvmBenchFigures[]> {
  const blocks = options.blocks ?? 5;
  const log = options.log ?? ((line: string) => console.log(line));
  const node = await startSandboxEvmNode({ chain: 'ERC20', port: options.port ?? 8552 });
  try {
    const pool = Array.from({ length: POOL_SIZES[0]! }, anAddress);
    await addToPool(db, pool);
    const firstBlock = (await node.blockNumber()) + 1n;
    const recipients: Address[] = [];
    for (let block = 0; block < blocks; block += 1) {
      const batch = Array.from({ length: TRANSFERS_PER_BLOCK }, (_, index) => (index < TRANSFERS_PER_BLOCK * POOL_SHARE ? pool[(block * TRANSFERS_PER_BLOCK + index) % pool.length]! : anAddress()));
      await node.transferMany(batch, 1_000_000n);
      recipients.push(...batch);
    }
    const head = await node.blockNumber();
    const figures: EvmBenchFigures[] = [];
    let poolAddresses: string[] = pool;
    for (const poolSize of POOL_SIZES) {
      if (poolAddresses.length < poolSize) {
        const more = Array.from({ length: poolSize - poolAddresses.length }, anAddress);
        await addToPool(db, more);
        poolAddresses = [...poolAddresses, ...more];
      }
      const settings = evmSettings({
        USDT_EVM_CHAINS: 'ERC20',
        EVM_ERC20_RPC_URLS: node.rpcUrl,
        EVM_ERC20_CHAIN_ID: String(SANDBOX_EVM_CHAINS.ERC20.chainId),
        EVM_ERC20_TOKEN_CONTRACT: node.token,
        EVM_ERC20_LOG_RANGE: '1',
        EVM_ERC20_START_LOOKBACK_BLOCKS: String(head - firstBlock + 1n),
      } as Record<string, string> as NodeJS.ProcessEnv).chains[0]!;
      const rpc = new EvmRpcPool('ERC20', settings.rpcUrls, { chainId: settings.chainId, rateLimitBackoffMs: 1000 });
      // The best of a few passes over the same blocks (cursor reset in between): the first pays for warming up.
      let matchingNanos = BigInt(Number.MAX_SAFE_INTEGER);
      let watcherNanos = BigInt(Number.MAX_SAFE_INTEGER);
      let handed: EvmTransfer[] = [];
      for (let pass = 0; pass < PASSES; pass += 1) {
        await db.execute(sql`DELETE FROM evm_chain_cursors WHERE chain = 'ERC20'`);
        let passMatching = 0n;
        const passHanded: EvmTransfer[] = [];
        const sink: EvmTransferSink = {
          async receivingAmong(chain, candidates, database) {
            const started = process.hrtime.bigint();
            const found = await receivingAddressesAmong(database, chain, candidates);
            passMatching += process.hrtime.bigint() - started;
            return found;
          },
          async onFinalTransfers(_chain, transfers) {
            passHanded.push(...transfers);
          },
          async onReorg(reorg) {
            throw new Error(`unexpected re-org at ${reorg.blockNumber}`);
          },
        };
        const started = process.hrtime.bigint();
        const result = await watchEvmChainOnce({ db, settings, rpc, sink }); // one range (block) after another
        const passNanos = process.hrtime.bigint() - started;
        if (result.cursor !== head) throw new Error(`the watcher stopped at ${result.cursor}, not ${head}`);
        if (passMatching < matchingNanos) matchingNanos = passMatching;
        if (passNanos < watcherNanos) watcherNanos = passNanos;
        handed = passHanded;
      }
      const baselineStarted = process.hrtime.bigint();
      const baselineMatched = baselineMatch(poolAddresses, recipients);
      const baselineNanos = process.hrtime.bigint() - baselineStarted;
      if (baselineMatched !== handed.length) throw new Error(`the watcher handed over ${handed.length} transfers, the baseline found ${baselineMatched}`);
      const perTransfer = (nanos: bigint) => Number(nanos) / 1000 / recipients.length;
      figures.push({ poolSize, transfers: recipients.length, matched: handed.length, matchingMicrosPerTransfer: perTransfer(matchingNanos), baselineMicrosPerTransfer: perTransfer(baselineNanos), watcherMicrosPerTransfer: perTransfer(watcherNanos) });
    }
    log(`\nevm chain: ${blocks} blocks × ${TRANSFERS_PER_BLOCK} USDT transfers on a sandbox node (ganache, JSON-RPC), ${POOL_SHARE * 100}% to pool addresses`);
    for (const row of figures) {
      log(
        `  ${String(row.poolSize).padStart(6)} addresses: ${row.matched} matched; matching ${row.matchingMicrosPerTransfer.toFixed(2)} µs/transfer (one indexed lookup per block), ` +
          `baseline ${row.baselineMicrosPerTransfer.toFixed(2)} µs/transfer (every address × every transfer), whole watcher pass (JSON-RPC, decoding, cursor) ${row.watcherMicrosPerTransfer.toFixed(1)} µs/transfer`,
      );
    }
    return figures;
  } finally {
    await node.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { resolveDatabase } = await import('../lib/db/connect');
  const { createBenchDatabase, dropBenchDatabase } = await import('./fixtures');
  const { applyMigrations } = await import('../lib/db/migrate');
  const { closeDb, getDb } = await import('../lib/db/client');
  const target = await resolveDatabase({ migrate: false });
  const serverUrl = target.embedded?.serverUrl ?? target.url;
  const databaseName = `bench_evm_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  process.env.DATABASE_URL = await createBenchDatabase(serverUrl, databaseName);
  try {
    await applyMigrations(process.env.DATABASE_URL);
    await benchEvmChain(getDb());
  } finally {
    await closeDb();
    await dropBenchDatabase(serverUrl, databaseName);
    await target.embedded?.stop?.();
  }
  process.exit(0);
}
