/**
 * Each EVM network's requests a day at mainnet block timing, measured on a real node (ganache behind the sandbox's
 * JSON-RPC front, which counts every call as a provider bills it): between two polls of the watcher (its default poll
 * for the network) the node makes the blocks mainnet would (Ethereum one every 12 s, `finalized` once per 32-block
 * epoch; BSC one every 0.75 s; Polygon one every 2 s), a batch of background USDT transfers between strangers in one of
 * them, and now and then one of our payments. Prints requests per simulated day per network, payments missed, and
 * final → credited latency p50/p99 in simulated time (from the moment the payment's block became final by the
 * network's rule, at the pace its blocks came, to the end of the poll that handed it over).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { evmSettings } from '../lib/channels/usdt/evm/evm-config';
import { EvmRpcPool } from '../lib/channels/usdt/evm/evm-rpc-pool';
import { MAINNET_TIMING } from '../lib/channels/usdt/evm/evm-request-budget';
import { receivingAddressesAmong } from '../lib/channels/usdt/evm/receiving-address-lookup';
import { watchEvmChainOnce, type EvmTransferSink } from '../lib/channels/usdt/evm/watch-evm-chain';
import type { EvmChainName } from '../lib/channels/usdt/evm/evm-chains';
import type { Database } from '../lib/db/client';
import { startSandboxEvmNode } from '../sandbox/evm/evm-node';
import { SANDBOX_EVM_CHAINS } from '../sandbox/evm/sandbox-evm-chains';

const POLLS = Number(process.env.BENCH_EVM_POLLS ?? 120);
const anAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** The block whose arrival makes `block` final: `depth` blocks above it, or the next 32-block epoch boundary. */
function finalizingBlock(block: bigint, finality: { kind: 'finalized-tag' } | { kind: 'depth'; blocks: number }, epoch: bigint): bigint {
  if (finality.kind === 'depth') return block + BigInt(finality.blocks);
  return ((block + epoch - 1n) / epoch) * epoch;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export async function benchEvmTraffic(db: Database, log: (line: string) => void = console.log): Promise<void> {
  log(`\nevm networks at mainnet block timing, ${POLLS} polls each at the network's default poll:`);
  for (const chain of ['ERC20', 'BEP20', 'POLYGON'] as EvmChainName[]) {
    const node = await startSandboxEvmNode({ chain: chain === 'POLYGON' ? 'POLYGON' : chain, port: 0 });
    try {
      const timing = MAINNET_TIMING[chain];
      if (chain === 'ERC20') node.setFinalizedStep(timing.finalStepMs / timing.blockMs);
      const receiving = Array.from({ length: 50 }, anAddress);
      await db.execute(sql`INSERT INTO receiving_addresses (chain, address) SELECT ${chain}, unnest(${sql.raw(`ARRAY['${receiving.join("','")}']`)}::text[]) ON CONFLICT DO NOTHING`);
      await db.execute(sql`DELETE FROM evm_chain_cursors WHERE chain = ${chain}`);
      const settings = evmSettings({
        USDT_EVM_CHAINS: chain,
        [`EVM_${chain}_RPC_URLS`]: node.rpcUrl,
        [`EVM_${chain}_CHAIN_ID`]: String(SANDBOX_EVM_CHAINS[chain].chainId),
        [`EVM_${chain}_TOKEN_CONTRACT`]: node.token,
      } as unknown as NodeJS.ProcessEnv).chains[0]!;
      const rpc = new EvmRpcPool(chain, settings.rpcUrls, { chainId: settings.chainId, rateLimitBackoffMs: 1000 });
      const handed = new Map<string, number>(); // transaction → simulated ms of the poll that handed it over
      let pollEndsAt = 0;
      const sink: EvmTransferSink = {
        receivingAmong: (name, candidates, database) => receivingAddressesAmong(database, name, candidates),
        async onFinalTransfers(_chain, transfers) {
          for (const transfer of transfers) if (!handed.has(transfer.transactionHash)) handed.set(transfer.transactionHash, pollEndsAt);
        },
        async onReorg(reorg) {
          throw new Error(`unexpected re-org at ${reorg.blockNumber}`);
        },
      };
      await node.mine(32); // a chain deeper than any finality depth, so the cursor starts below the first payment
      await watchEvmChainOnce({ db, settings, rpc, sink }); // the cursor starts at the final head
      // Only the watcher's calls count (the bench's own transactions go through the same node).
      const watcherCalls = new Map<string, number>();
      const watch = async () => {
        const before = node.calls();
        const result = await watchEvmChainOnce({ db, settings, rpc, sink });
        for (const [method, count] of node.calls()) watcherCalls.set(method, (watcherCalls.get(method) ?? 0) + count - (before.get(method) ?? 0));
        return result;
      };
      const paid: { hash: string; block: bigint }[] = [];
      // Simulated time: poll p ends at (p + 1) × poll interval, and the run's k-th block came at k × block time, so a
      // block (and the one that makes a payment final) lands anywhere between two polls, as on mainnet.
      const blockMadeAt = new Map<bigint, number>();
      let blocksMade = 0;
      let head = await node.blockNumber();
      let owedBlocks = 0;
      for (let poll = 0; poll < POLLS; poll += 1) {
        owedBlocks += settings.pollMs / timing.blockMs;
        const blocks = Math.floor(owedBlocks);
        owedBlocks -= blocks;
        pollEndsAt = (poll + 1) * settings.pollMs;
        if (blocks > 0) {
          // One block of background traffic, and every fourth poll one of our payments in a block of its own, at a
          // position among the poll's blocks that varies from poll to poll; the rest empty.
          const paying = poll % 4 === 0;
          const payAt = !paying ? -1 : blocks === 1 ? 0 : 1 + ((poll * 7) % (blocks - 1));
          let made = 0;
          const mineUpTo = async (slot: number) => {
            if (slot > made) await node.mine(slot - made);
            made = Math.max(made, slot);
          };
          if (payAt !== 0) {
            await node.transferMany(Array.from({ length: 20 }, anAddress), 1_000_000n);
            made = 1;
          }
          if (paying) {
            await mineUpTo(payAt);
            const payment = await node.transfer(receiving[poll % receiving.length]!, '12.34');
            paid.push({ hash: payment.transactionHash, block: payment.blockNumber });
            made += 1;
          }
          await mineUpTo(blocks);
          const newHead = await node.blockNumber();
          for (let block = head + 1n; block <= newHead; block += 1n) blockMadeAt.set(block, ++blocksMade * timing.blockMs);
          head = newHead;
        }
        await watch();
      }
      // Let the last payments become final, then count only the polls of the run.
      const requests = [...watcherCalls.values()].reduce((sum, count) => sum + count, 0);
      const methods = [...watcherCalls.entries()].filter(([, count]) => count > 0).map(([method, count]) => `${method} ${count}`).join(', ');
      pollEndsAt = Number.POSITIVE_INFINITY; // handed over only after the run: missed by the run, not late
      await node.mine(64);
      for (let pass = 0; pass < 3; pass += 1) await watchEvmChainOnce({ db, settings, rpc, sink });
      const missed = paid.filter(({ hash }) => !handed.has(hash)).length;
      const epoch = BigInt(timing.finalStepMs / timing.blockMs);
      const latencies = paid
        .map(({ hash, block }) => ({ handedAt: handed.get(hash), finalAt: blockMadeAt.get(finalizingBlock(block, settings.finality, epoch)) }))
        .filter((entry): entry is { handedAt: number; finalAt: number } => entry.handedAt !== undefined && Number.isFinite(entry.handedAt) && entry.finalAt !== undefined)
        .map(({ handedAt, finalAt }) => (handedAt - finalAt) / 1000)
        .sort((a, b) => a - b);
      const perDay = Math.round((requests * 86_400_000) / (POLLS * settings.pollMs));
      const goal = `goal p50 ≤ ${settings.pollMs / 1000} s, p99 ≤ ${(2 * settings.pollMs) / 1000 + 1} s`;
      log(`  ${chain.padEnd(7)} poll ${settings.pollMs / 1000} s: ${requests} requests in ${POLLS} polls → ${perDay.toLocaleString('en')} per simulated day; ${paid.length} payments, missed ${missed} (${methods})`);
      log(`          final → credited (simulated, ${latencies.length} payments): p50 ${quantile(latencies, 0.5).toFixed(2)} s, p99 ${quantile(latencies, 0.99).toFixed(2)} s, max ${quantile(latencies, 1).toFixed(2)} s (${goal})`);
    } finally {
      await node.close();
    }
  }
}
