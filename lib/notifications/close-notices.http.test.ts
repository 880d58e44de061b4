import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { getDb } from '../db/client';
import { channelNamed, notificationFieldsOf } from '../channels/index';
import { expireUsdtOrders } from '../channels/usdt/chain/expire-usdt-orders';
import { setCloseNotices } from '../merchants/close-notices';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { NotificationWorker } from './notification-worker';
import { closePendingOrders } from '../orders/order-status';

let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let sequence = 0;

beforeAll(async () => {
  app = await startTestApp();
  merchant = await aMerchant({ wholePool: true });
  receiver = await startMerchantReceiver(merchant.appSecret);
  await receivingAddresses(1);
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const deliver = () => new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock: systemClock, timeoutMs: 2_000 }).runOnce();
const optIn = (enabled: boolean) => setCloseNotices(getDb(), { merchantId: merchant.id, enabled, actor: 'test', now: new Date() });

async function anOrder() {
  sequence += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `CN-${process.pid}-${sequence}`, pay_usdt: `${60 + sequence}.00`, chainType: '1', notifyUrl: receiver.url, attach: 'cart=9' };
  const { json } = await app.signedPost('/v1/api/open/order/submit', fields, merchant.appSecret);
  expect(json.code).toBe(0);
  return { orderNo: json.data.orderNo as string, merchantOrderNo: fields.merchantOrderNo };
}

const close = (merchantOrderNo: string) => app.signedPost('/v1/api/open/order/close', { appId: merchant.appId, merchantOrderNo }, merchant.appSecret);

async function expire(orderNo: string) {
  await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '1 second' WHERE order_no = ${orderNo}`);
  await expireUsdtOrders(getDb(), new Date());
}

async function noticesOf(orderNo: string) {
  const { rows } = await getDb().execute<{ kind: string; status: string }>(sql`
    SELECT n.kind, n.status FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.order_no = ${orderNo} ORDER BY n.id`);
  return rows;
}

const receivedFor = (merchantOrderNo: string) => receiver.received.filter(({ form }) => form.merchantOrderNo === merchantOrderNo);

describe('close and expiry notices', () => {
  it('are off by default: neither a close nor an expiry writes or sends a notice', async () => {
    const closed = await anOrder();
    const expired = await anOrder();
    expect((await close(closed.merchantOrderNo)).json.code).toBe(0);
    await expire(expired.orderNo);
    await deliver();
    expect(await noticesOf(closed.orderNo)).toEqual([]);
    expect(await noticesOf(expired.orderNo)).toEqual([]);
    expect([...receivedFor(closed.merchantOrderNo), ...receivedFor(expired.merchantOrderNo)]).toEqual([]);
  });

  it('once opted in, a close sends a signed notice with status CLOSED through the outbox (delivered, attempt logged)', async () => {
    await optIn(true);
    const order = await anOrder();
    const before = Math.floor(Date.now() / 1000);
    expect((await close(order.merchantOrderNo)).json.code).toBe(0);
    await deliver();
    const [notice] = receivedFor(order.merchantOrderNo);
    expect(notice?.signatureValid).toBe(true);
    expect(notice!.form).toEqual({
      appId: merchant.appId,
      orderNo: order.orderNo,
      merchantOrderNo: order.merchantOrderNo,
      payType: 'USDT',
      status: 'CLOSED',
      closeTime: expect.stringMatching(/^\d+$/),
      attach: 'cart=9',
      signature: notice!.form.signature,
    });
    expect(Number(notice!.form.closeTime)).toBeGreaterThanOrEqual(before);
    expect(await noticesOf(order.orderNo)).toEqual([{ kind: 'closed', status: 'delivered' }]);
    const { rows } = await getDb().execute<{ outcome: string }>(sql`
      SELECT a.outcome FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id JOIN orders o ON o.id = n.order_id WHERE o.order_no = ${order.orderNo}`);
    expect(rows).toEqual([{ outcome: 'acknowledged' }]);
    // A repeated close answers the same and sends nothing more.
    await close(order.merchantOrderNo);
    await deliver();
    expect(receivedFor(order.merchantOrderNo)).toHaveLength(1);
  });

  it('once opted in, an expiry sends a signed notice with status EXPIRED; opted out again, none', async () => {
    const order = await anOrder();
    await expire(order.orderNo);
    await deliver();
    expect(receivedFor(order.merchantOrderNo).map(({ form, signatureValid }) => [form.status, signatureValid])).toEqual([['EXPIRED', true]]);
    await optIn(false);
    const later = await anOrder();
    await expire(later.orderNo);
    await deliver();
    expect(await noticesOf(later.orderNo)).toEqual([]);
  });

  it("names an ALIPAY or WECHAT order by platformOrderNo, as their payment notification does (USDT and YHT: orderNo)", async () => {
    await optIn(true);
    for (const channel of ['ALIPAY', 'WECHAT'] as const) {
      sequence += 1;
      const merchantOrderNo = `CN-${channel}-${process.pid}-${sequence}`;
      const orderNo = `${channel[0]}CN${process.pid}${sequence}${Date.now()}`;
      await getDb().execute(sql`
        INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, pay_token, expires_at, notify_url)
        VALUES (${orderNo}, ${merchant.id}, ${merchantOrderNo}, ${channel}, 'pending', 'CNY', 1250, 1250, md5(${orderNo}) || md5(${merchantOrderNo}), now() - interval '1 second', ${receiver.url})`);
      await closePendingOrders(getDb(), channelNamed(channel)!, sql`order_no = ${orderNo}`, new Date());
      await deliver();
      const [notice] = receivedFor(merchantOrderNo);
      const paidForm = notificationFieldsOf({ channel, orderNo, payAmountMinor: 1250n });
      expect(Object.keys(paidForm)).toContain('platformOrderNo');
      expect(notice?.signatureValid).toBe(true);
      expect(notice!.form).toMatchObject({ platformOrderNo: orderNo, merchantOrderNo, payType: channel, status: 'EXPIRED' });
      expect(notice!.form.orderNo).toBeUndefined();
    }
  });
});
