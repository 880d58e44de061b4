import type { PeriodicJob } from '../../../jobs/periodic-job';
import { evmSettings, type EvmSettings } from './evm-config';
import type { EvmRpcPool } from './evm-rpc-pool';
import type { EvmTransferSink } from './watch-evm-chain';
import { metrics } from '../../../observability/metrics';

/** The chain's lag and endpoints, for the metrics (an endpoint resting after a rate limit is blocked; one whose last call failed, failing). */
function recordEvmWatch(chain: string, lagBlocks: number | undefined, endpoints: ReturnType<EvmRpcPool['health']>): void {
  const states = { ok: 0, failing: 0, blocked: 0 };
  for (const endpoint of endpoints) states[endpoint.restingUntil ? 'blocked' : endpoint.lastError ? 'failing' : 'ok'] += 1;
  metrics().evmWatch.set(chain, { lagBlocks, endpoints: states });
}

/** The JSON-RPC side (viem) loads on the first run: every CLI and page that reads the registry would wait for it. */
const loadWatcher = async () => ({ ...(await import('./evm-rpc-pool')), ...(await import('./watch-evm-chain')) });

/**
 * The one EVM watcher: every EVM_POLL_MS it reads each enabled chain in turn (USDT_EVM_CHAINS). A chain that fails or
 * is held after a re-org does not stop the others; the run still fails afterwards so the health page shows it.
 * Endpoint pools live as long as the job, so a rate-limited endpoint keeps resting between runs.
 */
export function evmWatcherJob(sink: EvmTransferSink, settings: EvmSettings = evmSettings()): PeriodicJob {
  let pools: Map<string, EvmRpcPool> | undefined;
  /** When each chain was last read: a chain is read again once its own poll interval has passed. */
  const lastReadAt = new Map<string, number>();
  return {
    name: 'usdt-evm-watcher',
    intervalMs: settings.pollMs,
    async run({ db, log, clock }) {
      const { EvmEndpointsUnavailable, EvmRpcPool, shortError, watchEvmChainOnce } = await loadWatcher();
      pools ??= new Map(settings.chains.map((chain) => [chain.definition.name, new EvmRpcPool(chain.definition.name, chain.rpcUrls, { chainId: chain.chainId, rateLimitBackoffMs: settings.rateLimitBackoffMs })]));
      const failures: string[] = [];
      const lagBlocks = new Map<string, number | undefined>();
      const read = new Set<string>();
      for (const chain of settings.chains) {
        const name = chain.definition.name;
        const now = clock.now().getTime();
        // A little slack: the job's own tick drifts by a few milliseconds.
        if (now - (lastReadAt.get(name) ?? 0) < chain.pollMs - 50) continue;
        lastReadAt.set(name, now);
        read.add(name);
        try {
          const result = await watchEvmChainOnce({ db, settings: chain, rpc: pools.get(name)!, sink });
          lagBlocks.set(name, result.finalBlock !== null && result.cursor !== null ? Number(result.finalBlock - result.cursor) : undefined);
          if (result.reorg) {
            failures.push(`${name}: re-org below the cursor at block ${result.reorg.blockNumber}`);
            log(`evm ${name}: RE-ORG below the cursor at block ${result.reorg.blockNumber} (stored ${result.reorg.storedHash}, node ${result.reorg.nodeHash}); the chain is held until an operator resumes it`);
          } else if (result.transfers > 0) {
            log(`evm ${name}: ${result.transfers} final transfer(s) to receiving addresses up to block ${result.cursor}`);
          }
        } catch (error) {
          const reason = error instanceof EvmEndpointsUnavailable ? error.message : `${name}: ${shortError(error)}`; // the former names its chain
          failures.push(reason);
          log(`evm ${reason}`);
        }
      }
      // A chain not due this run keeps what its last read reported.
      for (const [name, pool] of pools) if (read.has(name)) recordEvmWatch(name, lagBlocks.get(name), pool.health());
      if (failures.length > 0) throw new Error(`EVM watcher: ${failures.join('; ')}`);
    },
  };
}
