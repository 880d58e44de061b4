import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { listAttention } from './attention';
import { merchantDetail } from './merchants';

let merchant: Awaited<ReturnType<typeof aMerchant>>;

beforeAll(async () => {
  merchant = await aMerchant();
  await receivingAddresses(1);
});

/** A refund row of a paid order, written as the refund flow writes it, asked for `minutesAgo`. */
async function aRefund(state: string, minutesAgo: number) {
  const order = await aPendingUsdtOrder(merchant.id, 'http://127.0.0.1:9/n', { amountMinor: 1000n });
  await payOrder(order.id, new Date());
  const refundNo = `R-STUCK-${order.id}`;
  await getDb().execute(sql`UPDATE orders SET refund_reserved_minor = 300 WHERE id = ${order.id}`);
  await getDb().execute(sql`
    INSERT INTO refunds (refund_no, merchant_id, order_id, merchant_refund_no, amount_minor, state, request_count, created_by, created_at, updated_at)
    VALUES (${refundNo}, ${merchant.id}, ${order.id}, ${`M-${refundNo}`}, 300, ${state}, 3, 'api:test', now() - make_interval(mins => ${minutesAgo}), now())`);
  return { refundNo, orderNo: order.orderNo };
}

describe('refunds for the operator', () => {
  it('a refund still processing half an hour after it was asked for is on the attention list; a younger or final one is not', async () => {
    const stuck = await aRefund('processing', 45);
    const young = await aRefund('processing', 5);
    const done = await aRefund('succeeded', 90);
    const listed = (await listAttention(getDb())).refunds.map((item) => item.refundNo);
    expect(listed).toContain(stuck.refundNo);
    expect(listed).not.toContain(young.refundNo);
    expect(listed).not.toContain(done.refundNo);
    const item = (await listAttention(getDb())).refunds.find((entry) => entry.refundNo === stuck.refundNo)!;
    expect(item).toMatchObject({ amount: '3.00', requestCount: 3, order: { orderNo: stuck.orderNo, appId: merchant.appId } });
  });

  it("the merchant's view lists its refunds with their states and who asked", async () => {
    const detail = (await merchantDetail(getDb(), merchant.appId))!;
    expect(detail.refunds.map((refund) => [refund.state, refund.createdBy])).toEqual(expect.arrayContaining([['processing', 'api:test'], ['succeeded', 'api:test']]));
  });
});
