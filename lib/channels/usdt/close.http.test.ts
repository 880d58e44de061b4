import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { startTronWatchBed, type TronWatchBed } from '../../../test/tron-watch-bed';
import { sendSandboxTransfer } from '../../../sandbox/tron/ledger';
import { expireUsdtOrders } from './chain/expire-usdt-orders';
import { slotCooldownCutoff } from './slot-cooldown';

const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';
const CLOSE = '/v1/api/open/order/close';

let bed: TronWatchBed;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let sequence = 0;

beforeAll(async () => {
  bed = await startTronWatchBed();
  merchant = await aMerchant({ wholePool: true });
  await receivingAddresses(2);
});
afterAll(() => bed.close());

const watch = () => bed.watch();
const close = (merchantOrderNo: string, extra: Record<string, unknown> = {}, who = merchant) =>
  bed.app.signedPost(CLOSE, { appId: who.appId, merchantOrderNo, ...extra }, who.appSecret);
const query = (merchantOrderNo: string) => bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo }, merchant.appSecret);

async function submit(payUsdt: string) {
  sequence += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `CL-${process.pid}-${sequence}`, pay_usdt: payUsdt, chainType: '1', notifyUrl: 'https://merchant.example/n' };
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const { rows } = await getDb().execute<{ id: string; address: string }>(sql`
    SELECT o.id, a.address FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id WHERE o.order_no = ${json.data.orderNo}`);
  return { ...json.data, id: Number(rows[0]!.id), address: rows[0]!.address, merchantOrderNo: fields.merchantOrderNo };
}

async function orderRow(id: number) {
  const { rows } = await getDb().execute<{ status: string; close_reason: string | null; holds_slot: boolean; expires_at: Date; closed_at: Date | null; notifications: number }>(sql`
    SELECT status, close_reason, holds_slot, expires_at, closed_at, (SELECT count(*)::int FROM notifications n WHERE n.order_id = o.id) AS notifications
    FROM orders o WHERE id = ${id}`);
  return rows[0]!;
}

async function auditOf(orderNo: string) {
  const { rows } = await getDb().execute<{ actor: string; action: string; after: { status: string; upstream: string } }>(sql`
    SELECT actor, action, after FROM audit_log WHERE subject = ${`order:${orderNo}`} ORDER BY id`);
  return rows;
}

describe('POST /v1/api/open/order/close, USDT', () => {
  it('closes a pending order: answers its query data with status 2, audited with the merchant as the actor', async () => {
    const order = await submit('31.00');
    const { status, json } = await close(order.merchantOrderNo);
    expect(status).toBe(200);
    expect(json).toEqual({ code: 0, message: 'success', data: { ...(await query(order.merchantOrderNo)).json.data } });
    expect(json.data).toMatchObject({ orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, status: '2' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'closed', close_reason: 'closed', holds_slot: true, notifications: 0 });
    expect(await auditOf(order.orderNo)).toEqual([{ actor: `merchant-api:${merchant.appId}`, action: 'order.close', after: expect.objectContaining({ status: 'closed' }) }]);
  });

  it('answers a repeated close the same way and changes nothing', async () => {
    const order = await submit('32.00');
    const first = await close(order.merchantOrderNo);
    const before = await orderRow(order.id);
    const second = await close(order.merchantOrderNo);
    expect(second.json).toEqual(first.json);
    expect(await orderRow(order.id)).toEqual(before);
    expect(await auditOf(order.orderNo)).toHaveLength(1);
  });

  it('a transfer after the close is recorded as late against the order and never credits it', async () => {
    const order = await submit('33.00');
    expect((await close(order.merchantOrderNo)).json.code).toBe(0);
    const transfer = await sendSandboxTransfer(getDb(), { to: order.address, amount: '33' });
    await watch();
    const { rows } = await getDb().execute<{ verdict: string; order_id: string }>(sql`SELECT verdict, order_id FROM chain_transfers WHERE transaction_id = ${transfer.transactionId}`);
    expect(rows).toEqual([{ verdict: 'late', order_id: String(order.id) }]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'closed', notifications: 0 });
    expect((await query(order.merchantOrderNo)).json.data.status).toBe('2');
  });

  it('the slot keeps its cool-down from the close: a new order of the same amount takes another slot, and the slot is freed only after the cool-down', async () => {
    const order = await submit('34.00');
    await close(order.merchantOrderNo);
    const closed = await orderRow(order.id);
    const closedAt = new Date(closed.closed_at!).getTime();
    expect(new Date(closed.expires_at).getTime()).toBe(closedAt); // the window ended at the close
    await expireUsdtOrders(getDb(), new Date());
    expect((await orderRow(order.id)).holds_slot).toBe(true);
    const next = await submit('34.00');
    expect(next.address === order.address && next.pay_usdt === order.pay_usdt).toBe(false);
    await expireUsdtOrders(getDb(), new Date(closedAt + (Date.now() - slotCooldownCutoff(new Date()).getTime()) + 1000));
    expect((await orderRow(order.id)).holds_slot).toBe(false);
  });

  it('refuses to close a paid order with 1012 naming its state, and leaves it paid', async () => {
    const order = await submit('35.00');
    await sendSandboxTransfer(getDb(), { to: order.address, amount: '35' });
    await watch();
    const { json } = await close(order.merchantOrderNo);
    expect(json).toEqual({ code: 1012, message: `order ${order.orderNo} is paid: only a pending order can be closed`, data: null });
    expect(await orderRow(order.id)).toMatchObject({ status: 'paid', notifications: 1 });
  });

  it('refuses to close an expired order with 1012 naming its state, before and after the expiry job closed it', async () => {
    const order = await submit('36.00');
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '1 second' WHERE id = ${order.id}`);
    const expected = { code: 1012, message: `order ${order.orderNo} is expired: only a pending order can be closed`, data: null };
    expect((await close(order.merchantOrderNo)).json).toEqual(expected);
    await expireUsdtOrders(getDb(), new Date());
    expect((await close(order.merchantOrderNo)).json).toEqual(expected);
    expect(await orderRow(order.id)).toMatchObject({ status: 'closed', close_reason: 'expired' });
  });

  it('validates like the query: 1003 naming the field, 1002, 1005, 1006 for an unknown number, another merchant or another payType', async () => {
    const order = await submit('37.00');
    expect((await bed.app.signedPost(CLOSE, { appId: merchant.appId }, merchant.appSecret)).json).toMatchObject({ code: 1003, message: expect.stringContaining('merchantOrderNo') });
    expect((await bed.app.post(CLOSE, { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, signature: 'A'.repeat(32) })).json.code).toBe(1002);
    expect((await bed.app.signedPost(CLOSE, { appId: 'mch_none', merchantOrderNo: order.merchantOrderNo }, merchant.appSecret)).json.code).toBe(1005);
    expect((await close('nope')).json).toEqual({ code: 1006, message: 'order not found', data: null });
    expect((await close(order.merchantOrderNo, { payType: 'ALIPAY' })).json.code).toBe(1006);
    expect((await close(order.merchantOrderNo, { payType: 'BTC' })).json.code).toBe(1003);
    const intruder = await aMerchant();
    expect((await close(order.merchantOrderNo, {}, intruder)).json.code).toBe(1006);
    expect((await orderRow(order.id)).status).toBe('pending');
    expect((await close(order.merchantOrderNo, { payType: 'USDT' })).json.data.status).toBe('2');
  });

  it('a close racing a transfer made before it: the transfer is inside the window, so the order ends paid (once), as after an expiry', async () => {
    const order = await submit('38.00');
    await sendSandboxTransfer(getDb(), { to: order.address, amount: '38' });
    const [closing] = await Promise.all([close(order.merchantOrderNo), watch()]);
    expect([0, 1012]).toContain(closing.json.code);
    await watch();
    expect(await orderRow(order.id)).toMatchObject({ status: 'paid', notifications: 1 });
  });
});
