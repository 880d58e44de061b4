import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxEvmNode, type SandboxEvmNode, type SentTransfer } from '../../../../sandbox/evm/evm-node';
import { aMerchant } from '../../../../test/factories';
import { payOrder } from '../../../../test/paid-orders';
import { handleSandboxTron } from '../../../../sandbox/tron/http-api';
import { serveWebHandler } from '../../../../test/web-handler-server';
import { parseSingleJsonObject, runAdmin } from '../../../cli/run-admin-for-tests';
import { getDb } from '../../../db/client';
import { beijingDayBounds, beijingDayOf } from '../../../reconciliation/beijing-day';
import { aDistinctPastDay } from '../../../../test/past-days';
import { creditFinding } from '../../../reconciliation/credit-finding';
import { reconcileDay } from '../../../reconciliation/reconcile-day';
import { CHANNELS } from '../..';
import { createUsdtOrder } from '../create-usdt-order';
import { addReceivingAddress } from '../receiving-addresses';
import type { EvmChainName } from './evm-chains';
import { usdtEvmSink } from './usdt-evm-sink';

// Real ganache nodes on free ports, read over HTTP JSON-RPC as a provider; their clocks start in a past Beijing day.
const CHAIN_TYPE: Record<EvmChainName, string> = { ERC20: '2', BEP20: '3', POLYGON: '4' };
const nodes: Partial<Record<EvmChainName, SandboxEvmNode>> = {};
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let tron: Awaited<ReturnType<typeof serveWebHandler>>;
let sequence = 0;

const hoursInto = (day: string, hours: number) => new Date(beijingDayBounds(day)!.start.getTime() + hours * 3600_000);
const anAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

async function startChain(chain: EvmChainName, day: string) {
  const node = await startSandboxEvmNode({ chain, port: 0, startTime: hoursInto(day, -2) });
  nodes[chain] = node;
  Object.assign(process.env, {
    USDT_EVM_CHAINS: Object.keys(nodes).join(','),
    [`EVM_${chain}_RPC_URLS`]: node.rpcUrl,
    [`EVM_${chain}_CHAIN_ID`]: String(node.chainId),
    [`EVM_${chain}_TOKEN_CONTRACT`]: node.token,
  });
  const address = anAddress();
  await addReceivingAddress(getDb(), chain, address);
  return { node, address };
}

/** A pending order on the chain, on `address`, as if created at `createdAt` (the chain's clock is in the past). */
async function anOrder(chain: EvmChainName, amountMinor: bigint, createdAt: Date) {
  sequence += 1;
  const { order } = await createUsdtOrder(getDb(), merchant.id, { merchantOrderNo: `R-${chain}-${sequence}`, amountMinor, chainType: CHAIN_TYPE[chain], notifyUrl: 'https://merchant.example/n', attach: 'r' });
  await getDb().execute(sql`UPDATE orders SET created_at = ${createdAt}, expires_at = ${new Date(createdAt.getTime() + 3600_000)} WHERE id = ${order.id}`);
  return order;
}

/** What the watcher does with a final transfer it sees: recorded and judged (here, paying its order). */
async function watcherSaw(chain: EvmChainName, node: SandboxEvmNode, sent: SentTransfer) {
  const block = await fetch(node.rpcUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [`0x${sent.blockNumber.toString(16)}`, false] }) });
  const { result } = (await block.json()) as { result: { hash: `0x${string}`; timestamp: string } };
  await getDb().transaction((tx) =>
    usdtEvmSink().onFinalTransfers(
      chain,
      [{ chain, transactionHash: sent.transactionHash, logIndex: 0, blockNumber: sent.blockNumber, blockHash: result.hash, blockTime: new Date(Number(result.timestamp) * 1000), from: node.payer, to: sent.to, raw: sent.raw }],
      tx,
    ),
  );
}

async function findingsOf(runId: number) {
  const { rows } = await getDb().execute<{ id: string; kind: string; reference: string; order_id: string | null; upstream_amount_minor: string | null }>(
    sql`SELECT id, kind, reference, order_id, upstream_amount_minor FROM reconciliation_findings WHERE run_id = ${runId} ORDER BY kind`,
  );
  return rows;
}

const reconcile = async (day: string, chain: EvmChainName) => (await reconcileDay(getDb(), CHANNELS, { day, now: () => new Date(), channels: ['USDT'] })).find((outcome) => outcome.scope === `chain:${chain}`)!;

process.env.SANDBOX_TRON_CONFIRM_MS = '0';

beforeAll(async () => {
  tron = await serveWebHandler(handleSandboxTron, '/sandbox/tron'); // TRON is reconciled beside them (an empty day)
  process.env.TRONGRID_BASE_URLS = tron.url;
  merchant = await aMerchant({ wholePool: true });
});
afterAll(async () => {
  await tron?.close();
  for (const node of Object.values(nodes)) await node.close();
});

describe('reconciling a day of USDT on an EVM chain against its logs, whatever the watcher read', () => {
  const day = aDistinctPastDay();
  const at = (hours: number) => hoursInto(day, hours);

  it('ERC20: a day not final yet is unavailable; then a skipped transfer is found and credited once, a stray one and a payment the chain lacks are found, reading in ranges the provider accepts', async () => {
    const { node, address } = await startChain('ERC20', day);

    // The endpoint was down: the watcher never saw this transfer, and the order closed unpaid.
    const skipped = await anOrder('ERC20', 1234n, at(9.5));
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = ${at(10.5)}, holds_slot = false WHERE id = ${skipped.id}`);
    await node.setTime(at(10));
    const skippedTransfer = await node.transfer(address, '12.34');

    await node.setTime(at(13));
    const stray = await node.transfer(address, '7.77'); // nobody ordered it

    const seen = await anOrder('ERC20', 4321n, at(14));
    await node.setTime(at(14.2));
    await watcherSaw('ERC20', node, await node.transfer(address, '43.21'));

    const phantom = await anOrder('ERC20', 999n, at(15)); // paid here "from the chain", no such transfer that day
    await payOrder(phantom.id, at(15.1), `0x${'f'.repeat(64)}`);
    await node.setTime(at(23.5));
    await node.mine(3);

    const early = await reconcile(day, 'ERC20');
    expect(early).toMatchObject({ status: 'unavailable', detail: expect.stringMatching(new RegExp(`ERC20 is final only up to block \\d+ .*before the end of ${day}`)) });
    expect(await findingsOf(early.runId)).toEqual([]);

    await node.setTime(at(24.5));
    await node.mine(1); // the first block of the next day: the whole day is final (ganache's `finalized` is its head)
    node.limitLogs({ maxBlockRange: 2, maxResults: 10_000 }); // the day spans more blocks than one request may
    const run = await runAdmin(['reconcile', '--date', day, '--channel', 'USDT', '--json'], { timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const report = parseSingleJsonObject(run.stdout) as unknown as { runs: { scope: string; status: string; findings: number; upstreamTotal: string; oursTotal: string }[] };
    expect(report.runs).toEqual([
      expect.objectContaining({ scope: 'chain:TRC20', status: 'complete', findings: 0 }),
      expect.objectContaining({ scope: 'chain:ERC20', status: 'complete', findings: 3, upstreamTotal: '63.32', oursTotal: '53.20' }),
    ]);

    const outcome = early; // the same day's run, repeated by the command
    const found = await findingsOf(outcome.runId);
    expect(found.map(({ id: _id, ...finding }) => finding)).toEqual([
      { kind: 'missing_here', reference: `${skippedTransfer.transactionHash}:0`, order_id: String(skipped.id), upstream_amount_minor: '1234' },
      { kind: 'missing_upstream', reference: phantom.orderNo, order_id: String(phantom.id), upstream_amount_minor: null },
      { kind: 'transfer_no_order', reference: `${stray.transactionHash}:0`, order_id: null, upstream_amount_minor: '777' },
    ]);
    expect(seen.id).toBeGreaterThan(0);

    await creditFinding(getDb(), { findingId: Number(found[0]!.id), actor: 'test', now: new Date() });
    await expect(creditFinding(getDb(), { findingId: Number(found[0]!.id), actor: 'test', now: new Date() })).rejects.toThrow(/credited already/);
    const { rows: credited } = await getDb().execute<{ status: string; trade_no: string; paid_at: Date }>(sql`SELECT status, trade_no, paid_at FROM orders WHERE id = ${skipped.id}`);
    expect(credited[0]).toMatchObject({ status: 'paid', trade_no: skippedTransfer.transactionHash });

    node.limitLogs({ maxBlockRange: 10_000, maxResults: 1 }); // now each block alone: "query returned more than 1 results"
    const again = await reconcile(day, 'ERC20');
    expect(again).toMatchObject({ runId: outcome.runId, status: 'complete' });
    expect((await findingsOf(again.runId)).map((finding) => finding.kind)).toEqual(['missing_upstream', 'transfer_no_order']); // the credited transfer now paid its order
  });

  it('ERC20: a day whose transfers the watcher saw and paid is clean', async () => {
    const next = beijingDayOf(hoursInto(day, 30));
    const node = nodes.ERC20!;
    const { rows } = await getDb().execute<{ address: Address }>(sql`SELECT address FROM receiving_addresses WHERE chain = 'ERC20' ORDER BY id LIMIT 1`);
    const address = rows[0]!.address;
    const order = await anOrder('ERC20', 2500n, hoursInto(next, 3));
    await node.setTime(hoursInto(next, 3.5));
    await watcherSaw('ERC20', node, await node.transfer(address, '25.00'));
    await node.setTime(hoursInto(next, 25));
    await node.mine(1);
    const outcome = await reconcile(next, 'ERC20');
    expect(outcome).toMatchObject({ status: 'complete', totals: { upstreamCount: 1, upstreamTotalMinor: 2500n, oursCount: 1, oursTotalMinor: 2500n, findingCount: 0 } });
    expect(order.id).toBeGreaterThan(0);
  });

  it('BEP20: 18 decimals, final at its depth: the day is unavailable until the block after it is 15 deep', async () => {
    const { node, address } = await startChain('BEP20', day);
    await node.mine(20); // history before the day
    await node.setTime(at(11));
    const stray = await node.transferRaw(address, 5n * 10n ** 18n + 1n); // a raw unit over 5 USDT: a whole number of cents it is not
    await node.setTime(at(24.2));
    await node.mine(10); // the day's end is 10 blocks deep, not 15
    expect(await reconcile(day, 'BEP20')).toMatchObject({ status: 'unavailable', detail: expect.stringContaining('BEP20 is final only up to block') });
    await node.mine(6); // the day's first next block is 15 deep now
    const outcome = await reconcile(day, 'BEP20');
    expect(outcome).toMatchObject({ status: 'complete', totals: { upstreamCount: 0, findingCount: 1 } });
    const [finding] = await findingsOf(outcome.runId);
    expect(finding).toMatchObject({ kind: 'transfer_no_order', reference: `${stray.transactionHash}:0`, upstream_amount_minor: '500' });
  });
});
