import { sql } from 'drizzle-orm';
import { systemClock } from '../lib/clock';
import { getDb } from '../lib/db/client';
import { ChainEndpointPool } from '../lib/channels/usdt/chain/chain-endpoints';
import { TronGridClient } from '../lib/channels/usdt/chain/trongrid-client';
import { watchChainOnce } from '../lib/channels/usdt/chain/watch-chain';
import { handleSandboxTron } from '../sandbox/tron/http-api';
import { sendSandboxTransfer } from '../sandbox/tron/ledger';
import { runSandbox } from '../test/run-sandbox';
import { sandboxChainConfig } from '../test/sandbox-chain-config';
import { untilSlotCloses } from '../test/tron-watch-bed';
import { serveWebHandler } from '../test/web-handler-server';

/** The submit answer's data, whatever the channel calls its order number. */
export interface SubmittedOrder {
  orderNo?: string;
  platformOrderNo?: string;
  pay_usdt?: string;
}

/**
 * Pays orders as their payers would, in the sandboxes: USDT by a transfer on the sandbox TRON ledger that the
 * chain watcher then finds; ALIPAY, WECHAT and YHT with `npm run sandbox -- <channel> pay`, whose simulated
 * upstream then calls the service back.
 */
export async function startSandboxPayments() {
  process.env.SANDBOX_TRON_CONFIRM_MS = '0'; // the sandbox chain confirms at once
  const tron = await serveWebHandler(handleSandboxTron, '/sandbox/tron');
  const config = sandboxChainConfig(tron.url);
  const client = new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, systemClock) });

  async function payUsdt(order: SubmittedOrder): Promise<void> {
    const { rows } = await getDb().execute<{ address: string }>(sql`
      SELECT a.address FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id WHERE o.order_no = ${order.orderNo}`);
    await sendSandboxTransfer(getDb(), { to: rows[0]!.address, amount: order.pay_usdt! });
    await untilSlotCloses(); // the watcher reads final blocks: the transfer's is final once its slot has closed
    await watchChainOnce({ db: getDb(), clock: systemClock, config, client });
  }

  return {
    async pay(channel: string, order: SubmittedOrder): Promise<void> {
      if (channel === 'USDT') return payUsdt(order);
      const run = await runSandbox([channel.toLowerCase(), 'pay', '--order', (order.platformOrderNo ?? order.orderNo)!]);
      if (run.exitCode !== 0) throw new Error(`sandbox ${channel} pay failed:\n${run.stdout}${run.stderr}`);
    },
    close: () => tron.close(),
  };
}
