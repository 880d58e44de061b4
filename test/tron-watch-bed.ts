import { systemClock } from '../lib/clock';
import { getDb } from '../lib/db/client';
import type { ChainConfig } from '../lib/channels/usdt/chain/chain-config';
import { ChainEndpointPool } from '../lib/channels/usdt/chain/chain-endpoints';
import { TronGridClient } from '../lib/channels/usdt/chain/trongrid-client';
import { watchChainOnce } from '../lib/channels/usdt/chain/watch-chain';
import { handleSandboxTron } from '../sandbox/tron/http-api';
import { startTestApp, type TestApp } from './open-api-client';
import { sandboxChainConfig } from './sandbox-chain-config';
import { serveWebHandler } from './web-handler-server';

/** The service's test server beside the sandbox TRON node, and one pass of the chain watcher over that node. */
export interface TronWatchBed {
  app: TestApp;
  chainUrl: string;
  config: ChainConfig;
  watch(): ReturnType<typeof watchChainOnce>;
  close(): Promise<void>;
}

/** Transfers to the sandbox node are confirmed at once (SANDBOX_TRON_CONFIRM_MS=0), so one watch pass sees them. */
export async function startTronWatchBed(): Promise<TronWatchBed> {
  process.env.SANDBOX_TRON_CONFIRM_MS = '0';
  const app = await startTestApp();
  const chain = await serveWebHandler(handleSandboxTron, '/sandbox/tron');
  const config = sandboxChainConfig(chain.url);
  return {
    app,
    chainUrl: chain.url,
    config,
    watch: () => watchChainOnce({ db: getDb(), clock: systemClock, config, client: new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, systemClock) }) }),
    async close() {
      await app.close();
      await chain.close();
    },
  };
}
