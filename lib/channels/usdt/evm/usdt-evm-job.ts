import type { PeriodicJob } from '../../../jobs/periodic-job';
import { evmSettings, type EvmSettings } from './evm-config';
import { evmWatcherJob } from './evm-watcher-job';
import { usdtEvmSink } from './usdt-evm-sink';

let settings: EvmSettings | undefined;
let job: PeriodicJob | undefined;

/** The EVM settings, read once (describeEvmChains reads them at start, so a missing one stops the process first). */
function loadedSettings(): EvmSettings {
  settings ??= evmSettings();
  return settings;
}

/** Named at start by the worker: which EVM chains are watched and through how many endpoints (never the URLs' keys). */
export function describeEvmChains(): string {
  const { chains } = loadedSettings();
  if (chains.length === 0) return 'usdt evm: no EVM chain enabled (USDT_EVM_CHAINS)';
  return `usdt evm: watching ${chains.map((chain) => `${chain.definition.name} (chain id ${chain.chainId}, ${chain.rpcUrls.length} endpoint(s), ${chain.finality.kind === 'depth' ? `final at depth ${chain.finality.blocks}` : 'finalized tag'})`).join(', ')}`;
}

/** The USDT channel's EVM watcher job; its settings are read when the worker starts, not when the module loads. */
export const usdtEvmWatcherJob: PeriodicJob = {
  name: 'usdt-evm-watcher',
  get intervalMs() {
    return loadedSettings().pollMs;
  },
  async run(context) {
    if (loadedSettings().chains.length === 0) return;
    job ??= evmWatcherJob(usdtEvmSink({ log: context.log }), loadedSettings());
    await job.run(context);
  },
};
