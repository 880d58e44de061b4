import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { notifications, orders } from '../db/schema';
import { findAlipayCheckout } from '../channels/alipay/checkout-view';
import { refundsOfOrder } from '../channels/open-api-refunds';
import { listAttention } from '../operator/attention';
import { listOrderRefunds } from '../portal/order-refunds';
import type { MerchantContext } from '../portal/merchant-context';
import { latePaymentOf, refundLatePayment } from './late-payment-refund';
import { alipaySubmit, anAlipayMerchant } from '../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { paySandboxTrade } from '../../sandbox/alipay/pay';
import { refundsOfTrade } from '../../sandbox/alipay/refund';

const CLOSE = '/v1/api/open/order/close';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterAll(() => bed.close());

describe('a payment that arrives after the merchant closed the order', () => {
  it('is recorded, not credited, shown to the operator and the merchant, and refunded in full in one action, once', async () => {
    const fields = alipaySubmit(merchant.appId, { amount: '23.45' });
    const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    const orderNo = json.data.platformOrderNo as string;
    // The payer has the signed pay URL in the browser but has not opened it: Alipay has no trade yet.
    const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
    const closed = await bed.app.signedPost(CLOSE, { appId: merchant.appId, merchantOrderNo: fields.merchantOrderNo }, merchant.appSecret);
    expect(closed.json).toMatchObject({ code: 0, data: { status: 3 } });

    // Then the payer opens it and pays; Alipay notifies the service.
    expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
    const paid = await paySandboxTrade(getDb(), { outTradeNo: orderNo });
    expect(paid.notify).toMatchObject({ acknowledged: true });

    const [order] = await getDb().select().from(orders).where(eq(orders.orderNo, orderNo));
    expect(order).toMatchObject({ status: 'closed', paidAt: null, refundedMinor: 0n });
    expect(await getDb().select().from(notifications).where(eq(notifications.orderId, order!.id))).toEqual([]);
    expect((await listAttention(getDb())).callbacks.find((item) => item.order?.orderNo === orderNo)).toMatchObject({ verdict: 'late_payment', tradeNo: paid.trade.tradeNo });
    expect(await latePaymentOf(getDb(), order!)).toMatchObject({ tradeNo: paid.trade.tradeNo });
    const context = { accountId: 0, email: '', merchantId: merchant.id, appId: merchant.appId, merchantName: '', orderPermission: true, timeZone: 'Asia/Shanghai' } as MerchantContext;
    expect((await listOrderRefunds(getDb(), context, orderNo)).latePayment).toMatchObject({ tradeNo: paid.trade.tradeNo, amount: '23.45', refundable: true });

    const refund = await refundLatePayment(getDb(), { merchantId: merchant.id, orderNo, channelOf: refundsOfOrder, actor: 'portal:test', now: new Date() });
    expect(refund).toMatchObject({ state: 'succeeded', amountMinor: 2345n, merchantRefundNo: `LATE-${orderNo}` });
    const again = await refundLatePayment(getDb(), { merchantId: merchant.id, orderNo, channelOf: refundsOfOrder, actor: 'portal:test', now: new Date() });
    expect(again.id).toBe(refund.id);
    expect((await refundsOfTrade(getDb(), orderNo)).map((row) => [row.outRequestNo, row.amountMinor, row.status])).toEqual([[refund.refundNo, 2345n, 'REFUND_SUCCESS']]);
    const [after] = await getDb().select().from(orders).where(eq(orders.orderNo, orderNo));
    expect(after).toMatchObject({ status: 'closed', refundReservedMinor: 2345n, refundedMinor: 2345n });
    expect((await listOrderRefunds(getDb(), context, orderNo)).latePayment).toMatchObject({ refundable: false });
  });

  it('an order closed without a late payment has nothing to refund', async () => {
    const fields = alipaySubmit(merchant.appId, { amount: '5.00' });
    const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    await bed.app.signedPost(CLOSE, { appId: merchant.appId, merchantOrderNo: fields.merchantOrderNo }, merchant.appSecret);
    await expect(refundLatePayment(getDb(), { merchantId: merchant.id, orderNo: json.data.platformOrderNo, channelOf: refundsOfOrder, actor: 'portal:test', now: new Date() })).rejects.toThrow(
      'has no payment that arrived after it was closed',
    );
  });
});
