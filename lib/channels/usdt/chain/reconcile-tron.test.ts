import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../../db/client';
import { aMerchant, receivingAddresses } from '../../../../test/factories';
import { aPendingUsdtOrder, payOrder } from '../../../../test/paid-orders';
import { serveWebHandler } from '../../../../test/web-handler-server';
import { sendSandboxTransfer } from '../../../../sandbox/tron/ledger';
import { handleSandboxTron } from '../../../../sandbox/tron/http-api';
import { beijingDayBounds } from '../../../reconciliation/beijing-day';
import { aDistinctPastDay } from '../../../../test/past-days';
import { reconcileDay } from '../../../reconciliation/reconcile-day';
import { CHANNELS } from '../..';
import { creditFinding } from '../../../reconciliation/credit-finding';

process.env.SANDBOX_TRON_CONFIRM_MS = '0';

let chain: Awaited<ReturnType<typeof serveWebHandler>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

beforeAll(async () => {
  chain = await serveWebHandler(handleSandboxTron, '/sandbox/tron');
  process.env.TRONGRID_BASE_URLS = chain.url;
  merchant = await aMerchant({ wholePool: true });
  await receivingAddresses(2);
});
afterAll(async () => {
  delete process.env.TRONGRID_BASE_URLS;
  await chain.close();
});

async function addressOf(orderId: number): Promise<string> {
  const { rows } = await getDb().execute<{ address: string }>(sql`SELECT a.address FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id WHERE o.id = ${orderId}`);
  return rows[0]!.address;
}

describe('reconciling a day of USDT on TRON against the chain, whatever the watcher read', () => {
  it('a transfer the watcher skipped for a waiting order is found and credited once; one that paid no order and a payment the chain does not have are found', async () => {
    const day = aDistinctPastDay();
    const { start } = beijingDayBounds(day)!;
    const at = (hours: number) => new Date(start.getTime() + hours * 3600_000);
    const backdate = (orderId: number, hours: number) => getDb().execute(sql`UPDATE orders SET created_at = ${at(hours)}, expires_at = ${at(hours + 1)} WHERE id = ${orderId}`);

    // The endpoint was down: the watcher never saw this transfer, and the order closed unpaid.
    const skipped = await aPendingUsdtOrder(merchant.id, 'https://merchant.example/n', { amountMinor: 1234n });
    await backdate(skipped.id, 10);
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = ${at(11)}, holds_slot = false WHERE id = ${skipped.id}`);
    const skippedTransfer = await sendSandboxTransfer(getDb(), { to: await addressOf(skipped.id), amount: '12.34' }, at(10.5).getTime());

    // A transfer nobody ordered.
    const stray = await sendSandboxTransfer(getDb(), { to: await addressOf(skipped.id), amount: '7.77' }, at(13).getTime());

    // Paid from the chain as the watcher saw it: no difference.
    const seen = await aPendingUsdtOrder(merchant.id, 'https://merchant.example/n', { amountMinor: 4321n });
    await backdate(seen.id, 14);
    const seenTransfer = await sendSandboxTransfer(getDb(), { to: await addressOf(seen.id), amount: '43.21' }, at(14.2).getTime());
    await payOrder(seen.id, at(14.2), seenTransfer.transactionId);

    // Paid here "from the chain", but the chain has no such transaction that day.
    const phantom = await aPendingUsdtOrder(merchant.id, 'https://merchant.example/n', { amountMinor: 999n });
    await backdate(phantom.id, 15);
    await payOrder(phantom.id, at(15.1), 'f'.repeat(64));

    const [outcome] = await reconcileDay(getDb(), CHANNELS, { day, now: () => new Date(), channels: ['USDT'] });
    expect(outcome).toMatchObject({ channel: 'USDT', scope: 'chain:TRC20', status: 'complete' });
    expect(outcome!.totals).toMatchObject({ upstreamCount: 3, upstreamTotalMinor: 1234n + 777n + 4321n, oursCount: 2, oursTotalMinor: 4321n + 999n, findingCount: 3 });
    const { rows } = await getDb().execute<{ id: string; kind: string; reference: string; order_id: string | null }>(
      sql`SELECT id, kind, reference, order_id FROM reconciliation_findings WHERE run_id = ${outcome!.runId} ORDER BY kind`,
    );
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
      { kind: 'missing_here', reference: `${skippedTransfer.transactionId}:0`, order_id: String(skipped.id) },
      { kind: 'missing_upstream', reference: phantom.orderNo, order_id: String(phantom.id) },
      { kind: 'transfer_no_order', reference: `${stray.transactionId}:0`, order_id: null },
    ]);

    await creditFinding(getDb(), { findingId: Number(rows[0]!.id), actor: 'test', now: new Date() });
    await expect(creditFinding(getDb(), { findingId: Number(rows[0]!.id), actor: 'test', now: new Date() })).rejects.toThrow(/credited already/);
    const { rows: credited } = await getDb().execute<{ status: string; trade_no: string }>(sql`SELECT status, trade_no FROM orders WHERE id = ${skipped.id}`);
    expect(credited[0]).toEqual({ status: 'paid', trade_no: skippedTransfer.transactionId });

    const [again] = await reconcileDay(getDb(), CHANNELS, { day, now: () => new Date(), channels: ['USDT'] });
    expect(again!.runId).toBe(outcome!.runId);
    expect(again!.totals?.findingCount).toBe(2); // the credited transfer now paid its order
  });
});
