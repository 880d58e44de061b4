import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { NotificationWorker } from '../notifications/notification-worker';
import { notificationFieldsOf } from '../channels/index';
import { notificationTestBed } from '../../test/notify-receiver';
import { aPendingUsdtOrder } from '../../test/paid-orders';
import { runAdmin, runAdminJson } from './run-admin-for-tests';


const bed = notificationTestBed({ isolateEachTest: false });

const deliverDue = () => new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2000 }).runOnce();

describe('order complete', () => {
  it('marks the order paid, writes the audit entry in the same step, and the merchant is notified', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const result = await runAdminJson(
      ['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'bank statement 2026-11-22 #4411'],
      { env: { ...process.env, OPERATOR: 'alice' } },
    );
    expect(result).toMatchObject({ orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, status: 'paid' });

    const { rows } = await getDb().execute<{ status: string; paid_via: string; actor: string; reason: string; before: unknown; after: { status: string } }>(sql`
      SELECT o.status, o.paid_via, a.actor, a.reason, a.before, a.after FROM orders o
      JOIN audit_log a ON a.subject = 'order:' || o.order_no AND a.action = 'order.complete' WHERE o.id = ${order.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'paid', paid_via: 'manual', actor: 'alice', reason: 'bank statement 2026-11-22 #4411', before: { status: 'pending' } });
    expect(rows[0]!.after.status).toBe('paid');

    expect(await deliverDue()).toBe(1);
    const delivered = bed.receiver.received.find((entry) => entry.form.merchantOrderNo === order.merchantOrderNo);
    expect(delivered?.signatureValid).toBe(true);
    expect(delivered?.form.status).toBe('PAID');
  });

  it('refuses an order that is already paid, an unknown order and an empty reason', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const args = ['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'ok'];
    expect((await runAdmin(args)).exitCode).toBe(0);
    const again = await runAdmin(args);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`order ${order.orderNo} is already paid`);
    const unknown = await runAdmin(['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', 'nope', '--reason', 'x']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain(`order not found: ${bed.merchant.appId} nope`);
    const empty = await runAdmin(['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', ' ']);
    expect(empty.exitCode).toBe(1);
    expect(empty.stderr).toContain('--reason');
  });

  it('completes an order that had already closed', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = now() WHERE id = ${order.id}`);
    const result = await runAdminJson(['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'late transfer confirmed']);
    expect(result.status).toBe('paid');
  });

  it('warns of a short payment: what the payer sent, of how much, and what is missing', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url, { amountMinor: 1234n + BigInt(process.pid % 100) * 2n });
    const sentRaw = (order.payAmountMinor - 34n) * 10_000n; // 0.34 USDT short, in the token's 6 decimals
    await getDb().execute(sql`
      INSERT INTO chain_transfers (transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id, value_raw, verdict, order_id)
      SELECT 'short-' || id, 0, 1, now(), 'TPayerShort', 'TPool', receiving_address_id, ${sentRaw.toString()}, 'wrong_amount', id FROM orders WHERE id = ${order.id}`);
    const args = ['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'payer topped up by bank'];
    const text = await runAdmin(args);
    expect(text.exitCode).toBe(0);
    const due = (Number(order.payAmountMinor) / 100).toFixed(2);
    const sent = (Number(order.payAmountMinor - 34n) / 100).toFixed(2);
    expect(text.stdout).toContain(`warning: the payer sent ${sent} of ${due} USDT (0.34 short, transaction short-${order.id}); the order is marked paid in full`);

    const other = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const json = await runAdminJson(['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', other.merchantOrderNo, '--reason', 'ok']);
    expect(json.shortfalls).toEqual([]);
    while ((await deliverDue()) > 0); // the next tests count their own deliveries
  });
});

describe('notify resend and list', () => {
  it('starts a new cycle with the history kept, and lists both', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await runAdminJson(['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'confirmed']);
    await deliverDue();

    const resent = await runAdminJson(['notify', 'resend', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo]);
    expect(resent).toMatchObject({ orderNo: order.orderNo, cycle: 2 });
    const before = bed.receiver.received.filter((entry) => entry.form.merchantOrderNo === order.merchantOrderNo).length;
    expect(await deliverDue()).toBe(1);
    expect(bed.receiver.received.filter((entry) => entry.form.merchantOrderNo === order.merchantOrderNo)).toHaveLength(before + 1);

    const listed = (await runAdminJson(['notify', 'list', '--app-id', bed.merchant.appId])).notifications as Array<Record<string, unknown>>;
    const ofOrder = listed.filter((row) => row.orderNo === order.orderNo);
    expect(ofOrder.map((row) => [row.cycle, row.status, row.attempts])).toEqual([
      [2, 'delivered', 1],
      [1, 'delivered', 1],
    ]);
    expect(((await runAdminJson(['notify', 'list', '--app-id', bed.merchant.appId, '--status', 'failed'])).notifications as unknown[]).length).toBe(0);
  });

  it('lists failed notifications with their last error', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await runAdminJson(['order', 'complete', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'confirmed']);
    await getDb().execute(sql`
      UPDATE notifications SET status = 'failed', failed_at = now(), attempt_count = 10, last_error = 'not acknowledged (HTTP 500)'
      WHERE order_id = ${order.id}`);
    const failed = (await runAdminJson(['notify', 'list', '--app-id', bed.merchant.appId, '--status', 'failed'])).notifications as Array<Record<string, unknown>>;
    expect(failed).toEqual([expect.objectContaining({ orderNo: order.orderNo, status: 'failed', attempts: 10, lastError: 'not acknowledged (HTTP 500)' })]);
  });

  it('refuses to resend for an unpaid order, and an unknown --status', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const unpaid = await runAdmin(['notify', 'resend', '--app-id', bed.merchant.appId, '--merchant-order-no', order.merchantOrderNo]);
    expect(unpaid.exitCode).toBe(1);
    expect(unpaid.stderr).toContain('is not paid');
    const badStatus = await runAdmin(['notify', 'list', '--app-id', bed.merchant.appId, '--status', 'lost']);
    expect(badStatus.exitCode).toBe(1);
    expect(badStatus.stderr).toContain('option --status must be one of pending, delivered, failed, superseded');
  });
});
