import { systemClock } from '../lib/clock';
import { getDb } from '../lib/db/client';
import type { ChainConfig } from '../lib/channels/usdt/chain/chain-config';
import { ChainEndpointPool } from '../lib/channels/usdt/chain/chain-endpoints';
import { TronGridClient } from '../lib/channels/usdt/chain/trongrid-client';
import { watchChainOnce } from '../lib/channels/usdt/chain/watch-chain';
import { handleSandboxTron } from '../sandbox/tron/http-api';
import { BLOCK_INTERVAL_MS } from '../sandbox/tron/ledger';
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

/** A sandbox block is final once its 3-second slot has closed (with SANDBOX_TRON_CONFIRM_MS=0): wait for the current one. */
export async function untilSlotCloses(): Promise<void> {
  const now = Date.now();
  await new Promise((resolve) => setTimeout(resolve, (Math.floor(now / BLOCK_INTERVAL_MS) + 1) * BLOCK_INTERVAL_MS - now + 5));
}

/** Transfers to the sandbox node are confirmed as soon as their block closes (SANDBOX_TRON_CONFIRM_MS=0): one watch pass, which waits for that, sees them. */
export async function startTronWatchBed(): Promise<TronWatchBed> {
  process.env.SANDBOX_TRON_CONFIRM_MS = '0';
  const app = await startTestApp();
  const chain = await serveWebHandler(handleSandboxTron, '/sandbox/tron');
  const config = sandboxChainConfig(chain.url);
  return {
    app,
    chainUrl: chain.url,
    config,
    async watch() {
      await untilSlotCloses();
      return watchChainOnce({ db: getDb(), clock: systemClock, config, client: new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, systemClock) }) });
    },
    async close() {
      await app.close();
      await chain.close();
    },
  };
}
