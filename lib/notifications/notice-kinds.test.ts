import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { getDb, type Database } from '../db/client';
import { notificationTestBed } from '../../test/notify-receiver';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { notificationFieldsOf } from '../channels/index';
import { enqueueNotice } from './enqueue';
import { NotificationWorker } from './notification-worker';
import { resendNotice } from '../orders/resend-notification';

const clock = new ManualClock(new Date());
const bed = notificationTestBed({ isolateEachTest: true });

const worker = () => new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock, timeoutMs: 500 });

function enqueue(notice: Parameters<typeof enqueueNotice>[1]) {
  return getDb().transaction((tx) => enqueueNotice(tx as unknown as Database, notice, clock.now()));
}

async function cyclesOf(orderId: number) {
  const { rows } = await getDb().execute<{ id: string; kind: string; subject: string; cycle: number; status: string; last_error: string | null }>(
    sql`SELECT id, kind, subject, cycle, status, last_error FROM notifications WHERE order_id = ${orderId} ORDER BY id`,
  );
  return rows;
}

describe('notices other than payments', () => {
  it('go only to their own notifyUrl, signed, with their frozen form; the payment notice still goes to the order\'s', async () => {
    const other = await startMerchantReceiver(bed.merchant.appSecret);
    try {
      const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
      await payOrder(order.id, clock.now(), 'tx-1');
      await enqueue({ orderId: order.id, kind: 'refund', subject: '7', notifyUrl: other.url, fields: { merchantRefundNo: 'R-1', status: 'SUCCEEDED' } });
      expect(await enqueue({ orderId: order.id, kind: 'refund', subject: '7', notifyUrl: other.url, fields: { merchantRefundNo: 'R-1', status: 'SUCCEEDED' } })).toBeUndefined();
      expect(await worker().runOnce()).toBe(2);

      expect(bed.receiver.received.map(({ form }) => form.status)).toEqual(['PAID']);
      expect(other.received).toHaveLength(1);
      expect(other.received[0]!.signatureValid).toBe(true);
      expect(other.received[0]!.form).toEqual({ appId: bed.merchant.appId, merchantRefundNo: 'R-1', status: 'SUCCEEDED', signature: other.received[0]!.form.signature });
      expect((await cyclesOf(order.id)).map(({ kind, status }) => [kind, status])).toEqual([['payment', 'delivered'], ['refund', 'delivered']]);
    } finally {
      await other.close();
    }
  });

  it('without a notifyUrl of their own are not sent to the order\'s: the attempt is rejected, visibly', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    await enqueue({ orderId: order.id, kind: 'refund', subject: '8', notifyUrl: null, fields: { merchantRefundNo: 'R-2', status: 'FAILED' } });
    await worker().runOnce();
    expect(bed.receiver.received).toHaveLength(0);
    const [cycle] = await cyclesOf(order.id);
    expect(cycle).toMatchObject({ kind: 'refund', status: 'pending', last_error: 'the refund request named no notifyUrl' });
  });

  it('are resent as a new cycle of the same notice, with the same form and URL', async () => {
    const order = await aPendingUsdtOrder(bed.merchant.id, bed.receiver.url);
    const id = await enqueue({ orderId: order.id, kind: 'refund', subject: '9', notifyUrl: bed.receiver.url, fields: { merchantRefundNo: 'R-3', status: 'CLOSED' } });
    const resent = await resendNotice(getDb(), { notificationId: id!, actor: 'operator:test', now: clock.now() });
    expect(resent.cycle).toBe(2);
    expect((await cyclesOf(order.id)).map(({ kind, subject, cycle, status }) => [kind, subject, cycle, status])).toEqual([
      ['refund', '9', 1, 'superseded'],
      ['refund', '9', 2, 'pending'],
    ]);
    await worker().runOnce();
    expect(bed.receiver.received.map(({ form }) => form.merchantRefundNo)).toEqual(['R-3']);
  });
});
