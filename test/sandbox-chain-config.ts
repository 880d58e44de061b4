import { USDT_TRC20_CONTRACT, type ChainConfig } from '../lib/channels/usdt/chain/chain-config';

/** The chain watcher's configuration for a test's sandbox TRON node at `baseUrl`: an hour of lookback, quick polls. */
export function sandboxChainConfig(baseUrl: string): ChainConfig {
  return {
    baseUrls: [baseUrl],
    contract: USDT_TRC20_CONTRACT,
    pollMs: 1000,
    initialLookbackMs: 60 * 60 * 1000,
    endpointRetryMs: 60 * 1000,
    access: 'sandbox',
  };
}
