/**
 * Each EVM network's requests a day at mainnet block timing, measured on a real node (ganache behind the sandbox's
 * JSON-RPC front, which counts every call as a provider bills it): between two polls of the watcher (its default poll
 * for the network) the node makes the blocks mainnet would (Ethereum one every 12 s, `finalized` once per 32-block
 * epoch; BSC one every 0.75 s; Polygon one every 2 s), a batch of background USDT transfers between strangers in one of
 * them, and now and then one of our payments. Prints requests per simulated day per network and payments missed.
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
      const handed = new Set<string>();
      const sink: EvmTransferSink = {
        receivingAmong: (name, candidates, database) => receivingAddressesAmong(database, name, candidates),
        async onFinalTransfers(_chain, transfers) {
          for (const transfer of transfers) handed.add(transfer.transactionHash);
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
      const paid: string[] = [];
      let owedBlocks = 0;
      for (let poll = 0; poll < POLLS; poll += 1) {
        owedBlocks += settings.pollMs / timing.blockMs;
        const blocks = Math.floor(owedBlocks);
        owedBlocks -= blocks;
        if (blocks > 0) {
          await node.transferMany(Array.from({ length: 20 }, anAddress), 1_000_000n); // background traffic, one block
          if (poll % 4 === 0) paid.push((await node.transfer(receiving[poll % receiving.length]!, '12.34')).transactionHash);
          const rest = blocks - 1 - (poll % 4 === 0 ? 1 : 0);
          if (rest > 0) await node.mine(rest);
        }
        await watch();
      }
      // Let the last payments become final, then count only the polls of the run.
      const requests = [...watcherCalls.values()].reduce((sum, count) => sum + count, 0);
      const methods = [...watcherCalls.entries()].filter(([, count]) => count > 0).map(([method, count]) => `${method} ${count}`).join(', ');
      await node.mine(64);
      for (let pass = 0; pass < 3; pass += 1) await watchEvmChainOnce({ db, settings, rpc, sink });
      const missed = paid.filter((hash) => !handed.has(hash)).length;
      const perDay = Math.round((requests * 86_400_000) / (POLLS * settings.pollMs));
      log(`  ${chain.padEnd(7)} poll ${settings.pollMs / 1000} s: ${requests} requests in ${POLLS} polls → ${perDay.toLocaleString('en')} per simulated day; ${paid.length} payments, missed ${missed} (${methods})`);
    } finally {
      await node.close();
    }
  }
}
