import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxEvm } from '../../../../sandbox/evm/sandbox-evm';
import { startMerchantReceiver } from '../../../../test/beds/merchant-receiver';
import { aMerchant } from '../../../../test/factories';
import { startTestApp, type TestApp } from '../../../../test/open-api-client';
import { systemClock } from '../../../clock';
import { getDb } from '../../../db/client';
import { NotificationWorker } from '../../../notifications/notification-worker';
import { notificationFieldsOf } from '../../index';
import { parseSingleJsonObject, runAdmin } from '../../../cli/run-admin-for-tests';
import { addReceivingAddress } from '../receiving-addresses';
import { listTransferItems } from '../operator/transfer-attention';
import { runSandbox } from '../../../../test/run-sandbox';
import { centsToRaw } from './evm-amounts';
import type { EvmChainName } from './evm-chains';
import { usdtEvmWatcherJob } from './usdt-evm-job';
import { freePorts } from '../../../../test/dev-server-process';

// Real ganache nodes on this suite's own ports; the service reads them over HTTP JSON-RPC as it would a provider.
// Ports of their own on every run: a second run beside this one (CI's other database) takes others.
const [ERC20_PORT, BEP20_PORT, POLYGON_PORT] = (await freePorts(3)) as [number, number, number];
const PORTS = { ERC20: ERC20_PORT, BEP20: BEP20_PORT, POLYGON: POLYGON_PORT };
const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';
const CHAIN_TYPE: Record<EvmChainName, string> = { ERC20: '2', BEP20: '3', POLYGON: '4' };

let sandbox: Awaited<ReturnType<typeof startSandboxEvm>>;
let app: TestApp;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
const logged: string[] = [];

const anAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** One run of the registered watcher job, as the worker runs it. */
// Each chain is read when its own poll interval is due: every run here stands for a later tick, so every chain is due.
let ticks = 0;
const aTickLater = { now: () => new Date(systemClock.now().getTime() + ++ticks * 3_600_000) };
const watch = () => usdtEvmWatcherJob.run({ db: getDb(), clock: aTickLater, log: (line) => logged.push(line) });

async function submit(merchantOrderNo: string, chain: EvmChainName, payUsdt: string) {
  const { json } = await app.signedPost(SUBMIT, { appId: merchant.appId, merchantOrderNo, pay_usdt: payUsdt, chainType: CHAIN_TYPE[chain], notifyUrl: receiver.url }, merchant.appSecret);
  expect(json).toMatchObject({ code: 0 });
  return json.data as { orderNo: string; pay_usdt: string; payUrl: string };
}

async function query(merchantOrderNo: string) {
  const { json } = await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo }, merchant.appSecret);
  return json.data as { status: string; chainType: string; pay_usdt: string };
}

async function transfersTo(address: string) {
  const { rows } = await getDb().execute<{ chain: string; verdict: string; value_raw: string }>(sql`
    SELECT chain, verdict, value_raw::text FROM chain_transfers WHERE to_address = ${address} ORDER BY id`);
  return rows;
}

beforeAll(async () => {
  sandbox = await startSandboxEvm({ ports: PORTS });
  // What `npm run dev` puts in the environment for the sandbox nodes; BEP20 final at depth 2 to keep the test short.
  Object.assign(process.env, sandbox.serviceSettings(), { EVM_BEP20_FINALITY: '2' });
  app = await startTestApp();
  merchant = await aMerchant();
  receiver = await startMerchantReceiver(merchant.appSecret);
  await sandbox.node('BEP20').mine(3); // BEP20's depth needs blocks below the head for a first final block
  await watch(); // first start: each chain's cursor begins at its final head
}, 60_000);
afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await sandbox?.close();
});

// Each test pays to addresses of its own: the earlier tests' addresses leave the pool (the watcher still reads them).
beforeEach(async () => {
  await getDb().execute(sql`UPDATE receiving_addresses SET enabled = false`);
});

describe('USDT on the EVM chains, over real JSON-RPC', () => {
  it.each(['ERC20', 'BEP20', 'POLYGON'] as const)('an exact %s payment pays the order, answers the query and notifies the merchant', async (chain) => {
    const address = anAddress();
    await addReceivingAddress(getDb(), chain, address);
    const order = await submit(`EVM-${chain}`, chain, '12.34');
    expect(order.pay_usdt).toBe('12.34');
    expect(await query(`EVM-${chain}`)).toMatchObject({ status: '0', chainType: CHAIN_TYPE[chain] });

    const sent = await sandbox.transfer(chain, address, '12.34');
    if (chain === 'BEP20') await sandbox.node(chain).mine(2);
    await watch();

    expect(await query(`EVM-${chain}`)).toMatchObject({ status: '1', chainType: CHAIN_TYPE[chain], pay_usdt: '12.34' });
    expect(await transfersTo(address)).toEqual([{ chain, verdict: 'matched', value_raw: centsToRaw(1234n, sandbox.node(chain).decimals).toString() }]);
    expect(await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 }).runOnce()).toBeGreaterThanOrEqual(1);
    const notification = receiver.received.find((entry) => entry.form.orderNo === order.orderNo);
    expect(notification).toMatchObject({ signatureValid: true, form: { pay_usdt: '12.34', tradeNo: sent.transactionHash } });
  });

  it('matches 18-decimal BEP20 amounts exactly: one raw unit over the cent pays nothing and is kept for the operator', async () => {
    const address = anAddress();
    await addReceivingAddress(getDb(), 'BEP20', address);
    await submit('EVM-BEP20-EXACT', 'BEP20', '10.01');
    await sandbox.node('BEP20').transferRaw(address, centsToRaw(1001n, 18) + 1n);
    await sandbox.node('BEP20').mine(2);
    await watch();
    expect((await query('EVM-BEP20-EXACT')).status).toBe('0');
    expect(await transfersTo(address)).toEqual([{ chain: 'BEP20', verdict: 'wrong_amount', value_raw: '10010000000000000001' }]);
    const kept = (await listTransferItems(getDb())).find((item) => item.toAddress === address);
    expect(kept).toMatchObject({ chain: 'BEP20', problem: 'over', amount: '10.010000000000000001', order: { payAmount: '10.01' } });

    await sandbox.node('BEP20').transferRaw(address, 1001n * 10n ** 16n);
    await sandbox.node('BEP20').mine(2);
    await watch();
    expect((await query('EVM-BEP20-EXACT')).status).toBe('1');
  });

  it('equal amounts on two chains to the same address are told apart: only the paid chain pays its order', async () => {
    const address = anAddress();
    await addReceivingAddress(getDb(), 'ERC20', address);
    await addReceivingAddress(getDb(), 'POLYGON', address);
    const onEthereum = await submit('EVM-TWIN-ERC20', 'ERC20', '20.00');
    const onPolygon = await submit('EVM-TWIN-POLYGON', 'POLYGON', '20.00');
    expect([onEthereum.pay_usdt, onPolygon.pay_usdt]).toEqual(['20.00', '20.00']);

    await sandbox.transfer('POLYGON', address, '20.00');
    await watch();
    expect((await query('EVM-TWIN-POLYGON')).status).toBe('1');
    expect((await query('EVM-TWIN-ERC20')).status).toBe('0');
  });

  it('a transfer dropped by a re-org on the node never pays the order', async () => {
    const address = anAddress();
    await addReceivingAddress(getDb(), 'BEP20', address);
    await submit('EVM-REORG', 'BEP20', '5.00');
    const node = sandbox.node('BEP20');
    const snapshot = await node.snapshot();
    await node.transfer(address, '5.00');
    await node.mine(1); // seen, not yet 2 blocks deep
    await watch();
    await node.revert(snapshot); // the fork without the transfer wins
    await node.mine(5);
    await watch();
    expect((await query('EVM-REORG')).status).toBe('0');
    expect(await transfersTo(address)).toEqual([]);

    const kept = await node.transfer(address, '5.00'); // the same payment on the winning chain pays
    await node.mine(2);
    await watch();
    expect((await query('EVM-REORG')).status).toBe('1');
    expect(await getDb().execute(sql`SELECT trade_no FROM orders WHERE merchant_order_no = 'EVM-REORG'`).then((result) => result.rows[0])).toEqual({ trade_no: kept.transactionHash });
  });

  it('a re-org below the cursor holds the chain, fails the job for the health page, and `admin evm resume` lets it read on', async () => {
    const address = anAddress();
    await addReceivingAddress(getDb(), 'POLYGON', address);
    await submit('EVM-HELD', 'POLYGON', '6.00');
    const node = sandbox.node('POLYGON'); // the finalized tag: on ganache every mined block is final
    const snapshot = await node.snapshot();
    await node.mine(1);
    await watch(); // the cursor moves onto a block the revert will replace
    const cursor = (await getDb().execute<{ block_number: string }>(sql`SELECT block_number FROM evm_chain_cursors WHERE chain = 'POLYGON'`)).rows[0]!;
    await node.revert(snapshot);
    const paid = await node.transfer(address, '6.00');
    await node.mine(1);

    await expect(watch()).rejects.toThrow(/POLYGON: re-org below the cursor/);
    await expect(watch()).rejects.toThrow(/POLYGON: re-org below the cursor/); // held until an operator acts
    expect((await query('EVM-HELD')).status).toBe('0');
    const { rows: held } = await getDb().execute<{ reorg_detected_at: Date | null }>(sql`SELECT reorg_detected_at FROM evm_chain_cursors WHERE chain = 'POLYGON'`);
    expect(held[0]!.reorg_detected_at).not.toBeNull();

    const refused = await runAdmin(['evm', 'resume', '--chain', 'POLYGON', '--after-block', 'soon']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('--after-block must be a block number');
    const afterBlock = (BigInt(cursor.block_number) - 2n).toString();
    const resumed = await runAdmin(['evm', 'resume', '--chain', 'POLYGON', '--after-block', afterBlock, '--json']);
    expect(resumed.exitCode).toBe(0);
    expect(parseSingleJsonObject(resumed.stdout)).toMatchObject({ chain: 'POLYGON', afterBlock, blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    await watch();
    expect((await query('EVM-HELD')).status).toBe('1');
    expect(await getDb().execute(sql`SELECT trade_no FROM orders WHERE merchant_order_no = 'EVM-HELD'`).then((result) => result.rows[0])).toEqual({ trade_no: paid.transactionHash });
  });

  it('`npm run sandbox -- evm transfer` (a child process, as a tester runs it) pays a BEP20 order end to end', async () => {
    const address = anAddress();
    await addReceivingAddress(getDb(), 'BEP20', address);
    await submit('EVM-CLI', 'BEP20', '3.21');
    const run = await runSandbox(['evm', 'transfer', '--chain', 'BEP20', '--to', address, '--amount', '3.21', '--json']);
    expect(run.exitCode).toBe(0);
    const sent = parseSingleJsonObject(run.stdout) as { transactionHash: string };
    await sandbox.node('BEP20').mine(2);
    await watch();
    expect((await query('EVM-CLI')).status).toBe('1');
    expect(await getDb().execute(sql`SELECT trade_no FROM orders WHERE merchant_order_no = 'EVM-CLI'`).then((result) => result.rows[0])).toEqual({ trade_no: sent.transactionHash });
  });

  it('`npm run sandbox -- evm traffic` puts blocks of strangers\' transfers at the network\'s pace; the watcher reads past them to a payment, and keeps none of them', async () => {
    const address = anAddress();
    await addReceivingAddress(getDb(), 'BEP20', address);
    await submit('EVM-TRAFFIC', 'BEP20', '4.56');
    // BNB Smart Chain makes a block every 0.75 s: 3 s of 8 transfers a second is 4 blocks of 6.
    const run = await runSandbox(['evm', 'traffic', '--chain', 'BEP20', '--per-second', '8', '--minutes', '0.05', '--seed', 'evm-traffic-test', '--json']);
    // After the traffic, not during it: the traffic and this payment are sent by the one sandbox payer (one nonce).
    const paid = await sandbox.node('BEP20').transfer(address, '4.56');
    expect(run.exitCode, run.stderr).toBe(0);
    const made = parseSingleJsonObject(run.stdout) as { blocks: number; transfers: number; skippedBlocks: number; fromBlock: number; toBlock: number };
    expect(made.blocks + made.skippedBlocks).toBe(4);
    expect(made.blocks).toBeGreaterThan(0);
    expect(made.transfers).toBe(made.blocks * 6);

    const logs = await fetch(sandbox.node('BEP20').rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ address: sandbox.node('BEP20').token, fromBlock: `0x${made.fromBlock.toString(16)}`, toBlock: `0x${made.toBlock.toString(16)}` }] }),
    }).then((response) => response.json() as Promise<{ result: { transactionHash: string }[] }>);
    const strangers = logs.result.filter((log) => log.transactionHash !== paid.transactionHash);
    expect(strangers).toHaveLength(made.transfers);

    await sandbox.node('BEP20').mine(2);
    await watch();
    expect((await query('EVM-TRAFFIC')).status).toBe('1');
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM chain_transfers WHERE chain = 'BEP20' AND block_number BETWEEN ${made.fromBlock} AND ${made.toBlock} AND transaction_id <> ${paid.transactionHash}`);
    expect(rows[0]!.count).toBe(0); // strangers' transfers are not the service's to keep
  });
});
