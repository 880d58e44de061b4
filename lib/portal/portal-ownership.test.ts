import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { auditLog, notifications } from '../db/schema';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { setOrderPermission } from '../merchants/merchants';
import { receivingAddresses } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { calendarDayInZone } from '../i18n/time-zone';
import { revealAppSecret, rotateAppSecret } from './interface-keys';
import { listMerchantOrders } from './list-merchant-orders';
import { merchantContextOf, type MerchantContext } from './merchant-context';
import { merchantOrderDetail } from './merchant-order-detail';
import { parseOrderFilters } from './order-filters';
import { resendOrderNotification } from './resend-order-notification';

const PASSWORD = 'correct horse battery';
let sequence = 0;

/** A merchant as the portal sees it: signed up, then its context built from the session token. */
async function aPortalMerchant(): Promise<MerchantContext> {
  sequence += 1;
  const { accountId } = await signUpMerchant(getDb(), {
    merchantName: `Shop ${sequence}`,
    email: `owner${sequence}-${process.pid}@example.com`,
    password: PASSWORD,
    clientAddress: `192.0.2.${sequence}`,
    now: new Date(),
  });
  return (await merchantContextOf(getDb(), accountId))!;
}

const filters = (params: Record<string, string> = {}) => parseOrderFilters(params);

let alice: MerchantContext;
let bob: MerchantContext;
let app: TestApp;

beforeAll(async () => {
  await receivingAddresses(2);
  alice = await aPortalMerchant();
  bob = await aPortalMerchant();
  app = await startTestApp();
});
afterAll(() => app.close());

describe('orders: a merchant sees only its own', () => {
  it('lists, filters and pages its own orders and never another merchant’s, even by exact number', async () => {
    const aliceOrders = [];
    for (let index = 0; index < 3; index += 1) aliceOrders.push(await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/notify'));
    const bobOrder = await aPendingUsdtOrder(bob.merchantId, 'http://127.0.0.1:9/notify');
    await payOrder(aliceOrders[0]!.id, new Date());

    const all = await listMerchantOrders(getDb(), alice, filters());
    expect(all.rows.length).toBe(3);
    expect(all.rows.map((row) => row.orderNo).sort()).toEqual(aliceOrders.map((order) => order.orderNo).sort());
    expect((await listMerchantOrders(getDb(), alice, filters({ status: 'paid' }))).rows.map((row) => row.orderNo)).toEqual([aliceOrders[0]!.orderNo]);
    expect((await listMerchantOrders(getDb(), alice, filters({ channel: 'YHT' }))).rows.length).toBe(0);
    expect((await listMerchantOrders(getDb(), alice, filters({ q: aliceOrders[1]!.merchantOrderNo }))).rows.map((row) => row.orderNo)).toEqual([aliceOrders[1]!.orderNo]);
    expect((await listMerchantOrders(getDb(), alice, filters({ q: aliceOrders[2]!.orderNo }))).rows.length).toBe(1);
    // The beginning of either number finds it too; LIKE's wildcards in the text are taken literally.
    expect((await listMerchantOrders(getDb(), alice, filters({ q: aliceOrders[1]!.merchantOrderNo.slice(0, -2) }))).rows.map((row) => row.orderNo)).toContain(aliceOrders[1]!.orderNo);
    expect((await listMerchantOrders(getDb(), alice, filters({ q: aliceOrders[2]!.orderNo.slice(0, 6) }))).rows.map((row) => row.orderNo)).toContain(aliceOrders[2]!.orderNo);
    expect((await listMerchantOrders(getDb(), alice, filters({ q: '%' }))).rows.length).toBe(0);
    const today = calendarDayInZone(new Date(), alice.timeZone);
    expect((await listMerchantOrders(getDb(), alice, filters({ from: today, to: today }))).rows.length).toBe(3);
    expect((await listMerchantOrders(getDb(), alice, filters({ to: '2020-01-01' }))).rows.length).toBe(0);
    // Garbage in the query string is dropped, not an error.
    expect((await listMerchantOrders(getDb(), alice, filters({ channel: 'BITCOIN', from: 'yesterday', before: 'page-3' }))).rows.length).toBe(3);

    expect((await listMerchantOrders(getDb(), bob, filters({ q: aliceOrders[0]!.orderNo }))).rows.length).toBe(0);
    expect((await listMerchantOrders(getDb(), bob, filters({ q: aliceOrders[0]!.merchantOrderNo }))).rows.length).toBe(0);
    expect((await listMerchantOrders(getDb(), bob, filters())).rows.map((row) => row.orderNo)).toEqual([bobOrder.orderNo]);
  });

  it('pages by 20 by keyset, newest first, every order once even when many share a creation time', async () => {
    const carol = await aPortalMerchant();
    for (let index = 0; index < 45; index += 1) await aPendingUsdtOrder(carol.merchantId, 'http://127.0.0.1:9/notify');
    // Twelve orders created in the same microsecond: the id breaks the tie, so none is skipped or shown twice.
    await getDb().execute(sql`UPDATE orders SET created_at = '2026-11-01T00:00:00.123456Z' WHERE merchant_id = ${carol.merchantId} AND id % 4 = 0`);
    const first = await listMerchantOrders(getDb(), carol, filters());
    expect([first.rows.length, first.newer]).toEqual([20, undefined]);
    const second = await listMerchantOrders(getDb(), carol, filters({ before: first.older! }));
    const third = await listMerchantOrders(getDb(), carol, filters({ before: second.older! }));
    expect([second.rows.length, third.rows.length, third.older]).toEqual([20, 5, undefined]);
    const seen = [...first.rows, ...second.rows, ...third.rows].map((row) => row.orderNo);
    expect(new Set(seen).size).toBe(45);
    const { rows: expected } = await getDb().execute<{ order_no: string }>(
      sql`SELECT order_no FROM orders WHERE merchant_id = ${carol.merchantId} ORDER BY created_at DESC, id DESC`,
    );
    expect(seen).toEqual(expected.map((row) => row.order_no));
    // Back up: the page above the third is the second.
    const back = await listMerchantOrders(getDb(), carol, filters({ after: third.newer! }));
    expect(back.rows.map((row) => row.orderNo)).toEqual(second.rows.map((row) => row.orderNo));
    expect(back.older).toBe(second.older);
  });

  it('shows its own order with a timeline; another merchant’s order is not found', async () => {
    const order = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/notify');
    await payOrder(order.id, new Date(Date.now() + 1000), 'tx-detail');
    const detail = await merchantOrderDetail(getDb(), alice, order.orderNo);
    expect(detail.order).toMatchObject({ orderNo: order.orderNo, status: 'paid', tradeNo: 'tx-detail' });
    expect(detail.timeline.map((event) => event.kind)).toEqual(['created', 'paid', 'notification-queued']);
    expect(detail.canResend).toBe(true);
    await expect(merchantOrderDetail(getDb(), bob, order.orderNo)).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('resend notification', () => {
  it('starts a new cycle of its own paid order, audited with the account as actor', async () => {
    const order = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/notify');
    await payOrder(order.id, new Date());
    const result = await resendOrderNotification(getDb(), alice, { orderNo: order.orderNo, now: new Date() });
    expect(result.cycle).toBe(2);
    const entries = await getDb().select().from(auditLog).where(and(eq(auditLog.action, 'notification.resend'), eq(auditLog.subject, `order:${order.orderNo}`)));
    expect(entries.map((entry) => entry.actor)).toEqual([`account:${alice.email}`]);
    const timeline = (await merchantOrderDetail(getDb(), alice, order.orderNo)).timeline.filter((event) => event.kind === 'notification-queued');
    expect(timeline).toHaveLength(2);
  });

  it('refuses another merchant’s order (no new cycle) and an unpaid order', async () => {
    const order = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/notify');
    await payOrder(order.id, new Date());
    await expect(resendOrderNotification(getDb(), bob, { orderNo: order.orderNo, now: new Date() })).rejects.toMatchObject({ kind: 'not_found' });
    expect(await getDb().$count(notifications, eq(notifications.orderId, order.id))).toBe(1);

    const pending = await aPendingUsdtOrder(alice.merchantId, 'http://127.0.0.1:9/notify');
    await expect(resendOrderNotification(getDb(), alice, { orderNo: pending.orderNo, now: new Date() })).rejects.toMatchObject({
      kind: 'action_refused',
      message: 'only a paid order has a notification to re-send',
      userMessage: { key: 'orders.resendNeedsPaid' },
    });
  });
});

describe('interface keys', () => {
  it('reveals the AppSecret only with the account password, and only its own merchant’s', async () => {
    const dave = await aPortalMerchant();
    await expect(revealAppSecret(getDb(), dave, { password: 'wrong', now: new Date() })).rejects.toMatchObject({
      kind: 'password_rejected',
      userMessage: { key: 'accounts.passwordRejected' },
      fieldErrors: { password: { key: 'accounts.passwordRejectedField' } },
    });
    const secret = await revealAppSecret(getDb(), dave, { password: PASSWORD, now: new Date() });
    const bobSecret = await revealAppSecret(getDb(), bob, { password: PASSWORD, now: new Date() });
    expect(secret).not.toBe(bobSecret);
    const reveals = await getDb().select().from(auditLog).where(and(eq(auditLog.action, 'merchant.app_secret.reveal'), eq(auditLog.subject, `merchant:${dave.appId}`)));
    expect(reveals).toHaveLength(1);
    expect(JSON.stringify(reveals)).not.toContain(secret);
  });

  it('throttles password re-entry per account (5 failures in 15 minutes)', async () => {
    const erin = await aPortalMerchant();
    const now = new Date();
    for (let index = 0; index < 5; index += 1) await expect(revealAppSecret(getDb(), erin, { password: `guess ${index}`, now })).rejects.toMatchObject({ kind: 'password_rejected' });
    await expect(revealAppSecret(getDb(), erin, { password: PASSWORD, now })).rejects.toMatchObject({
      kind: 'too_many_attempts',
      userMessage: { key: 'accounts.tooManyAttempts', values: { minutes: expect.any(Number) } },
    });
  });

  it('rotation: over HTTP the old secret gets 1002 at once, the new one signs; the other merchant is untouched', async () => {
    const frank = await aPortalMerchant();
    await setOrderPermission(getDb(), frank.appId, true);
    const old = await revealAppSecret(getDb(), frank, { password: PASSWORD, now: new Date() });
    const bobSecret = await revealAppSecret(getDb(), bob, { password: PASSWORD, now: new Date() });
    const query = { appId: frank.appId, merchantOrderNo: 'NOPE-1' };
    expect((await app.signedPost('/v1/api/open/order/query', query, old)).json.code).toBe(1006);

    await expect(rotateAppSecret(getDb(), frank, { password: 'wrong', now: new Date() })).rejects.toMatchObject({ kind: 'password_rejected' });
    expect((await app.signedPost('/v1/api/open/order/query', query, old)).json.code).toBe(1006);

    const fresh = await rotateAppSecret(getDb(), frank, { password: PASSWORD, now: new Date() });
    expect(fresh).not.toBe(old);
    expect((await app.signedPost('/v1/api/open/order/query', query, old)).json).toMatchObject({ code: 1002, data: null });
    expect((await app.signedPost('/v1/api/open/order/query', query, fresh)).json.code).toBe(1006);
    expect(await revealAppSecret(getDb(), frank, { password: PASSWORD, now: new Date() })).toBe(fresh);
    expect(await revealAppSecret(getDb(), bob, { password: PASSWORD, now: new Date() })).toBe(bobSecret);
    const rotations = await getDb().select().from(auditLog).where(eq(auditLog.action, 'merchant.app_secret.rotate'));
    expect(rotations.map((entry) => [entry.actor, entry.subject])).toEqual([[`account:${frank.email}`, `merchant:${frank.appId}`]]);
  });
});
