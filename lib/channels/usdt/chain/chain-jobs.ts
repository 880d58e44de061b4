import type { PeriodicJob } from '../../../jobs/periodic-job';
import { chainConfig, chainPollMs } from './chain-config';
import { ChainEndpointPool } from './chain-endpoints';
import { expireUsdtOrders } from './expire-usdt-orders';
import { TronGridClient } from './trongrid-client';
import { watchChainOnce } from './watch-chain';

export const chainWatcherJob: PeriodicJob = {
  name: 'usdt-chain-watcher',
  intervalMs: chainPollMs(),
  async run({ db, clock, log, signal }) {
    const config = chainConfig();
    const endpoints = await ChainEndpointPool.load(db, config.baseUrls, clock, config.endpointRetryMs);
    try {
      const result = await watchChainOnce({ db, clock, config, client: new TronGridClient({ endpoints, apiKey: config.apiKey, signal }) });
      const matched = result.recorded.filter((entry) => entry.verdict === 'matched').length;
      const unmatched = result.recorded.filter((entry) => entry.verdict && entry.verdict !== 'matched').length;
      if (matched + unmatched > 0) log(`chain: ${matched} order(s) paid, ${unmatched} transfer(s) for the operator`);
    } finally {
      await endpoints.save(db);
    }
  },
};

export const usdtExpiryJob: PeriodicJob = {
  name: 'usdt-order-expiry',
  intervalMs: 10_000,
  async run({ db, clock }) {
    await expireUsdtOrders(db, clock.now());
  },
};
