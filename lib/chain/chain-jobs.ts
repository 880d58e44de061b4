import type { PeriodicJob } from '../workers/periodic-job';
import { chainConfig } from './chain-config';
import { expireUsdtOrders } from './expire-usdt-orders';
import { TronGridClient } from './trongrid-client';
import { watchChainOnce } from './watch-chain';

export const chainWatcherJob: PeriodicJob = {
  name: 'usdt-chain-watcher',
  intervalMs: chainConfig().pollMs,
  async run({ db, clock, log }) {
    const config = chainConfig();
    const result = await watchChainOnce({ db, clock, config, client: new TronGridClient({ baseUrl: config.baseUrl, apiKey: config.apiKey }) });
    const matched = result.recorded.filter((entry) => entry.verdict === 'matched').length;
    const unmatched = result.recorded.filter((entry) => entry.verdict && entry.verdict !== 'matched').length;
    if (matched + unmatched > 0) log(`chain: ${matched} order(s) paid, ${unmatched} transfer(s) for the operator`);
  },
};

export const usdtExpiryJob: PeriodicJob = {
  name: 'usdt-order-expiry',
  intervalMs: 10_000,
  async run({ db, clock }) {
    await expireUsdtOrders(db, clock.now());
  },
};
