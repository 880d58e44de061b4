import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../../db/client';
import type { TestApp } from '../../../../test/open-api-client';
import { startTronWatchBed, type TronWatchBed } from '../../../../test/tron-watch-bed';
import { contractSignature } from '../../../../test/beds/contract-signer';
import { aMerchant, aTronAddress, receivingAddresses } from '../../../../test/factories';
import { sendSandboxTransfer, SANDBOX_PAYER } from '../../../../sandbox/tron/ledger';
import { USDT_TRC20_CONTRACT } from './chain-config';
import { expireUsdtOrders } from './expire-usdt-orders';
import { metrics } from '../../../observability/metrics';
import { claimDueNotifications } from '../../../notifications/claim';

let bed: TronWatchBed;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let sequence = 0;

beforeAll(async () => {
  bed = await startTronWatchBed();
  app = bed.app;
  merchant = await aMerchant({ wholePool: true });
  await receivingAddresses(2);
});
afterAll(() => bed.close());

const watch = () => bed.watch();

async function submit(payUsdt: string) {
  sequence += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `CH-${sequence}`, pay_usdt: payUsdt, chainType: '1', notifyUrl: 'https://merchant.example/n' };
  const { json } = await app.signedPost('/v1/api/open/order/submit', fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const { rows } = await getDb().execute<{ id: string; address: string }>(sql`
    SELECT o.id, a.address FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id WHERE o.order_no = ${json.data.orderNo}`);
  return { ...json.data, id: Number(rows[0]!.id), address: rows[0]!.address, merchantOrderNo: fields.merchantOrderNo };
}

async function queryStatus(merchantOrderNo: string): Promise<string> {
  const fields = { appId: merchant.appId, merchantOrderNo };
  const { json } = await app.post('/v1/api/open/order/query', { ...fields, signature: contractSignature(fields, merchant.appSecret) });
  return json.data.status;
}

async function orderRow(id: number) {
  const { rows } = await getDb().execute<{ status: string; trade_no: string | null; payer: string | null; paid_at: string | null; notifications: number }>(sql`
    SELECT status, trade_no, payer, paid_at, (SELECT count(*)::int FROM notifications n WHERE n.order_id = o.id) AS notifications FROM orders o WHERE id = ${id}`);
  return rows[0]!;
}

async function transferRow(transactionId: string) {
  const { rows } = await getDb().execute<{ verdict: string; order_id: string | null }>(sql`SELECT verdict, order_id FROM chain_transfers WHERE transaction_id = ${transactionId}`);
  return rows;
}

describe('matching confirmed USDT transfers', () => {
  it('an exact payment pays the order: tx id, payer, block time, a notification, and query status 1', async () => {
    const order = await submit('10.00');
    const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '10' });
    await watch();
    const paid = await orderRow(order.id);
    expect(paid).toMatchObject({ status: 'paid', trade_no: transfer.transactionId, payer: SANDBOX_PAYER, notifications: 1 });
    expect(new Date(paid.paid_at!).getTime()).toBe(transfer.blockTimestampMs);
    expect(await transferRow(transfer.transactionId)).toEqual([{ verdict: 'matched', order_id: String(order.id) }]);
    expect(await queryStatus(order.merchantOrderNo)).toBe('1');
  });

  it('times each chain payment: final → credited when the watcher pays it, credited → notified when its notice goes out', async () => {
    const count = async (name: string) => Number(/_count\{network="TRC20"\} (\d+)/.exec(await metrics().registry.getSingleMetricAsString(name))?.[1] ?? 0);
    const [finalBefore, notifiedBefore] = [await count('payment_chain_final_to_credited_seconds'), await count('payment_chain_credited_to_notified_seconds')];
    const order = await submit('11.00');
    await sendSandboxTransfer(getDb(), { to: order.address, amount: '11' });
    await watch();
    expect(await count('payment_chain_final_to_credited_seconds')).toBe(finalBefore + 1);
    const claimed = await claimDueNotifications(getDb(), { workerId: 'metrics-test', now: new Date(), leaseMs: 60_000, limit: 100 });
    expect(claimed.some((notification) => notification.orderId === order.id)).toBe(true);
    expect(await count('payment_chain_credited_to_notified_seconds')).toBeGreaterThan(notifiedBefore);
  });

  it('equal amounts on two addresses: the transfer pays the order on its own address only', async () => {
    const first = await submit('20.00');
    const second = await submit('20.00');
    expect(first.address).not.toBe(second.address);
    await sendSandboxTransfer(getDb(), { to: second.address, amount: '20.00' });
    await watch();
    expect((await orderRow(second.id)).status).toBe('paid');
    expect((await orderRow(first.id)).status).toBe('pending');
  });

  it('+0.01 orders are told apart by the exact amount', async () => {
    const orders = [await submit('30.00'), await submit('30.00'), await submit('30.00')];
    const plusCent = orders.find((order) => order.pay_usdt === '30.01')!;
    const sameAddressBase = orders.find((order) => order.pay_usdt === '30.00' && order.address === plusCent.address)!;
    await sendSandboxTransfer(getDb(), { to: plusCent.address, amount: '30.01' });
    await watch();
    expect((await orderRow(plusCent.id)).status).toBe('paid');
    expect((await orderRow(sameAddressBase.id)).status).toBe('pending');
  });

  it('short, over and sub-cent payments are kept for the operator and pay nothing', async () => {
    const order = await submit('40.00');
    const short = await sendSandboxTransfer(getDb(), { to: order.address, amount: '39.99' });
    const over = await sendSandboxTransfer(getDb(), { to: order.address, amount: '40.5' });
    const subCent = await sendSandboxTransfer(getDb(), { to: order.address, amount: '40.000001' });
    await watch();
    expect((await orderRow(order.id)).status).toBe('pending');
    for (const transfer of [short, over, subCent]) expect((await transferRow(transfer.transactionId))[0]!.verdict).toBe('wrong_amount');
  });

  it('a transfer after the window is late: recorded against the order, which stays unpaid', async () => {
    const order = await submit('50.00');
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '1 second' WHERE id = ${order.id}`);
    await expireUsdtOrders(getDb(), new Date());
    const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '50' });
    await watch();
    expect(await transferRow(transfer.transactionId)).toEqual([{ verdict: 'late', order_id: String(order.id) }]);
    expect((await orderRow(order.id)).status).toBe('closed');
    expect(await queryStatus(order.merchantOrderNo)).toBe('2');
  });

  it('a payment inside the window that is confirmed after the order closed still pays it', async () => {
    const order = await submit('55.00');
    const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '55' });
    await getDb().execute(sql`UPDATE orders SET expires_at = to_timestamp(${(transfer.blockTimestampMs + 1) / 1000}) WHERE id = ${order.id}`);
    await expireUsdtOrders(getDb(), new Date(transfer.blockTimestampMs + 2));
    expect((await orderRow(order.id)).status).toBe('closed');
    await watch();
    expect((await orderRow(order.id)).status).toBe('paid');
  });

  it('a transfer to a pool address with no order is kept; one to another address is not ours', async () => {
    const pool = await receivingAddresses(1);
    const stranger = aTronAddress();
    const toPool = await sendSandboxTransfer(getDb(), { to: pool[0]!, amount: '1' });
    const elsewhere = await sendSandboxTransfer(getDb(), { to: stranger, amount: '1' });
    await watch();
    expect((await transferRow(toPool.transactionId))[0]!.verdict).toBe('no_order');
    expect(await transferRow(elsewhere.transactionId)).toEqual([]);
  });
});

describe('the watcher over restarts and duplicates', () => {
  it('reads again from an old cursor without recording or paying anything twice', async () => {
    const order = await submit('60.00');
    const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '60' });
    await watch();
    await getDb().execute(sql`UPDATE chain_cursors SET block_number = block_number - 20 WHERE block_number IS NOT NULL`);
    const again = await watch();
    expect(again.recorded.map((entry) => entry.transfer.transactionId)).toContain(transfer.transactionId);
    expect(again.recorded.every((entry) => entry.verdict === undefined)).toBe(true);
    expect(await transferRow(transfer.transactionId)).toHaveLength(1);
    expect((await orderRow(order.id)).notifications).toBe(1);
  });

  it('resumes from its persisted cursor after a restart and misses nothing', async () => {
    const before = await watch();
    const order = await submit('70.00');
    const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '70' });
    const { rows } = await getDb().execute<{ name: string; block_timestamp_ms: string }>(sql`SELECT name, block_timestamp_ms FROM chain_cursors ORDER BY name`);
    expect(rows.map((row) => row.name)).toEqual(['usdt-trc20', 'usdt-trc20:read-through']);
    expect(Number(rows[0]!.block_timestamp_ms)).toBe(before.cursorMs);
    // The pass listed everything up to the final block: it has read through that block, payments or not.
    expect(Math.abs(Number(rows[1]!.block_timestamp_ms) - Date.now())).toBeLessThan(15_000);
    const restarted = await watch(); // a new client and a fresh read of the cursor, as after a restart
    expect(restarted.recorded.filter((entry) => entry.verdict !== undefined).map((entry) => entry.transfer.transactionId)).toEqual([transfer.transactionId]);
    expect((await orderRow(order.id)).status).toBe('paid');
  });

  it('reads a block of more transfers than an events page holds, in one request', async () => {
    const pool = await receivingAddresses(1);
    const sent = [];
    for (let index = 0; index < 450; index += 1) sent.push((await sendSandboxTransfer(getDb(), { to: pool[0]!, amount: `0.0${(index % 9) + 1}` })).transactionId);
    const result = await watch();
    expect(result.requests).toBeLessThanOrEqual(2);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM chain_transfers WHERE to_address = ${pool[0]!}`);
    expect(rows[0]!.count).toBe(450);
  });
});

describe('nothing skipped: late indexing and solidification', () => {
  it('a block the node has late holds the cursor below it; when it comes, it and the blocks after it pay, once', async () => {
    const early = await submit('91.00');
    const later = await submit('92.00');
    const lateTransfer = await sendSandboxTransfer(getDb(), { to: early.address, amount: '91', indexDelayMs: 600_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const onTime = await sendSandboxTransfer(getDb(), { to: later.address, amount: '92' });
    const first = await watch();
    expect((await orderRow(early.id)).status).toBe('pending'); // its block is not served yet
    expect((await orderRow(later.id)).status).toBe('pending'); // nor any block after it
    expect(first.blockNumber).toBeLessThan(lateTransfer.blockNumber);
    expect(onTime.blockNumber).toBeGreaterThanOrEqual(lateTransfer.blockNumber);

    // The node gets the block now (not after the 10 minutes asked for: the test must not depend on timing).
    await getDb().execute(sql`UPDATE sandbox_tron_transfers SET indexed_at_ms = ${Date.now()} WHERE transaction_id = ${lateTransfer.transactionId}`);
    const second = await watch();
    expect(second.recorded.filter((entry) => entry.verdict === 'matched').map((entry) => entry.transfer.transactionId).sort()).toEqual([lateTransfer.transactionId, onTime.transactionId].sort());
    expect((await orderRow(early.id)).status).toBe('paid');
    await watch();
    expect((await orderRow(later.id)).notifications).toBe(1);
  });

  it('a transfer the indexer calls confirmed counts only once its block is solidified (served by /walletsolidity)', async () => {
    const order = await submit('93.00');
    await getDb().execute(sql`UPDATE orders SET created_at = now() - interval '1 minute' WHERE id = ${order.id}`);
    process.env.SANDBOX_TRON_CONFIRM_MS = '60000'; // solidification a minute behind the head, as on mainnet
    try {
      const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '93' });
      await new Promise((resolve) => setTimeout(resolve, 3100)); // a block later the indexer calls it confirmed
      const listed = await (await fetch(`${bed.chainUrl}/v1/contracts/${USDT_TRC20_CONTRACT}/events?only_confirmed=true&min_block_timestamp=${transfer.blockTimestampMs}`)).json();
      expect(listed.data.map((event: { transaction_id: string }) => event.transaction_id)).toContain(transfer.transactionId);
      const solid = await (await fetch(`${bed.chainUrl}/walletsolidity/getnowblock`, { method: 'POST' })).json();
      expect(solid.block_header.raw_data.number).toBeLessThan(transfer.blockNumber);

      const early = await watch();
      expect(early.blockNumber).toBeLessThan(transfer.blockNumber);
      expect((await orderRow(order.id)).status).toBe('pending');
      expect(await transferRow(transfer.transactionId)).toEqual([]);

      process.env.SANDBOX_TRON_CONFIRM_MS = '0';
      await watch();
      expect((await orderRow(order.id)).status).toBe('paid');
      expect(await transferRow(transfer.transactionId)).toEqual([{ verdict: 'matched', order_id: String(order.id) }]);
    } finally {
      process.env.SANDBOX_TRON_CONFIRM_MS = '0';
    }
  });
});

describe('expiry', () => {
  it('closes pending orders past their window and frees their slot after the cool-down', async () => {
    const order = await submit('80.00');
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '61 minutes' WHERE id = ${order.id}`);
    expect(await expireUsdtOrders(getDb(), new Date())).toBeGreaterThanOrEqual(1);
    expect((await orderRow(order.id)).status).toBe('closed');
    const again = await submit('80.00');
    expect(again.pay_usdt).toBe('80.00');
    expect(again.address).toBe(order.address);
  });
});
