import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { alipayAdapter } from './adapter';
import { aMerchant } from '../../../test/factories';
import { findAlipayCheckout } from './checkout-view';
import { createDirectOrder } from '../../orders/create-direct-order';

let merchantId: number;
let sequence = 0;

beforeAll(async () => {
  process.env.PUBLIC_BASE_URL = 'http://shop.test';
  delete process.env.ALIPAY_GATEWAY_URL;
  const merchant = await aMerchant();
  merchantId = merchant.id;
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
});

async function anOrder(payMethod = 'web') {
  sequence += 1;
  const { order } = await createDirectOrder(
    getDb(),
    merchantId,
    alipayAdapter,
    { merchantOrderNo: `VIEW-${sequence}`, payMethod, amountMinor: 4321n, notifyUrl: 'https://m.example/n', productName: 'Tea', productDesc: 'Green tea' },
    { clientIp: '127.0.0.1' },
  );
  return order;
}

describe('the ALIPAY checkout view', () => {
  it('pending: a signed page-pay URL to the gateway, expiring with the order and returning to the checkout', async () => {
    const order = await anOrder('wap');
    const checkout = (await findAlipayCheckout(getDb(), order.payToken))!;
    expect(checkout).toMatchObject({ status: 'pending', amount: '43.21', payMethod: 'wap', unavailable: false });
    const url = new URL(checkout.gatewayUrl!);
    expect(`${url.origin}${url.pathname}`).toBe('http://shop.test/sandbox/alipay/gateway.do');
    expect(url.searchParams.get('method')).toBe('alipay.trade.wap.pay');
    expect(url.searchParams.get('notify_url')).toBe('http://shop.test/v1/api/callback/alipay');
    expect(url.searchParams.get('return_url')).toBe(`http://shop.test/pay/${order.payToken}`);
    expect(url.searchParams.get('sign_type')).toBe('RSA2');
    const expire = new Date(order.expiresAt.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(JSON.parse(url.searchParams.get('biz_content')!)).toEqual({
      out_trade_no: order.orderNo,
      total_amount: '43.21',
      subject: 'Tea',
      body: 'Green tea',
      product_code: 'QUICK_WAP_WAY',
      time_expire: expire,
      quit_url: `http://shop.test/pay/${order.payToken}`,
    });
    expect((await findAlipayCheckout(getDb(), order.payToken, new Date(), { gatewayUrl: false }))!.gatewayUrl).toBeUndefined();
  });

  it('after 30 minutes, or closed: expired without a way to pay; paid: paid', async () => {
    const order = await anOrder();
    expect(await findAlipayCheckout(getDb(), order.payToken, new Date(order.expiresAt.getTime() + 1000))).toMatchObject({ status: 'expired', gatewayUrl: undefined });
    await getDb().execute(sql`UPDATE orders SET status = 'closed' WHERE id = ${order.id}`);
    expect(await findAlipayCheckout(getDb(), order.payToken)).toMatchObject({ status: 'expired', gatewayUrl: undefined });
    const paid = await anOrder();
    await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE id = ${paid.id}`);
    expect(await findAlipayCheckout(getDb(), paid.payToken)).toMatchObject({ status: 'paid', gatewayUrl: undefined });
  });

  it('says Alipay is unavailable when the bound credential is gone, and knows no other channel\'s token', async () => {
    const order = await anOrder();
    await getDb().execute(sql`UPDATE orders SET credential_id = NULL WHERE id = ${order.id}`);
    expect(await findAlipayCheckout(getDb(), order.payToken)).toMatchObject({ status: 'pending', gatewayUrl: undefined, unavailable: true });
    expect(await findAlipayCheckout(getDb(), 'x'.repeat(43))).toBeUndefined();
  });
});
