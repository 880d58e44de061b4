import { upstreamFailure } from '../errors/domain-error';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { DomainError } from '../errors/domain-error';
import { addSandboxCredential } from '../cli/credential-add-command';
import { type DirectChannelAdapter, type DirectPaymentRequest } from './direct-channel-adapter';
import { aMerchant } from '../../test/factories';
import { createDirectOrder } from './create-direct-order';
import { alipayAdapter } from '../channels/alipay/adapter';
import { directCreateData } from './direct-view';

let merchantId: number;

beforeAll(async () => {
  const merchant = await aMerchant();
  merchantId = merchant.id;
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
});

const input = (merchantOrderNo: string) => ({
  merchantOrderNo,
  payMethod: 'web',
  amountMinor: 1000n,
  notifyUrl: 'https://m.example/n',
  productName: 'Payment',
});

/** A stand-in upstream behind the adapter interface (the shape a WECHAT adapter has: it starts the payment at create). */
function adapterThat(start: (request: DirectPaymentRequest) => ReturnType<DirectChannelAdapter['startPayment']>): DirectChannelAdapter {
  return { ...alipayAdapter, startPayment: (_credential, request) => start(request), payUrlOf: (_order, upstream) => upstream?.cashierUrl ?? 'checkout' };
}

async function rows(merchantOrderNo: string) {
  const { rows } = await getDb().execute<{ orders: number; upstream: number }>(sql`
    SELECT (SELECT count(*)::int FROM orders WHERE merchant_order_no = ${merchantOrderNo}) AS orders,
           (SELECT count(*)::int FROM upstream_orders u JOIN orders o ON o.id = u.order_id WHERE o.merchant_order_no = ${merchantOrderNo}) AS upstream`);
  return rows[0]!;
}

describe('createDirectOrder', () => {
  it('an upstream refusal is 1011 with its reason, and nothing is written', async () => {
    const adapter = adapterThat(async () => {
      throw upstreamFailure('upstream says no');
    });
    const attempt = createDirectOrder(getDb(), merchantId, adapter, input('REFUSED-1'), { clientIp: '203.0.113.9' });
    await expect(attempt).rejects.toEqual(new DomainError('upstream_failure', { message: 'upstream says no' }));
    expect(await rows('REFUSED-1')).toEqual({ orders: 0, upstream: 0 });
  });

  it('stores what the upstream answered with the order, in one transaction, and the payUrl comes from the adapter', async () => {
    let seen: DirectPaymentRequest | undefined;
    const adapter = adapterThat(async (request) => {
      seen = request;
      return { upstreamOrderNo: request.orderNo, cashierUrl: 'https://upstream.example/pay?x=1', qrContent: 'weixin://wxpay/bizpayurl?pr=abc' };
    });
    const created = await createDirectOrder(getDb(), merchantId, adapter, input('STARTED-1'), { clientIp: '203.0.113.9' });
    expect(seen).toMatchObject({ orderNo: created.order.orderNo, amountMinor: 1000n, payMethod: 'web', subject: 'Payment', clientIp: '203.0.113.9' });
    expect(seen!.checkoutUrl).toMatch(/\/pay\/[A-Za-z0-9_-]{43}$/);
    expect(created.upstream).toMatchObject({ upstreamOrderNo: created.order.orderNo, qrContent: 'weixin://wxpay/bizpayurl?pr=abc' });
    expect(await rows('STARTED-1')).toEqual({ orders: 1, upstream: 1 });
    expect(directCreateData(adapter, created).payUrl).toBe('https://upstream.example/pay?x=1');

    const retry = await createDirectOrder(getDb(), merchantId, adapter, input('STARTED-1'), { clientIp: '203.0.113.9' });
    expect(retry.recovered).toBe(true);
    expect(directCreateData(adapter, retry).payUrl).toBe('https://upstream.example/pay?x=1');
  });

  it('WECHAT through the same path: 1009 names WECHAT, and the window is ORDER_TTL_MINUTES', async () => {
    const wechat: DirectChannelAdapter = { ...adapterThat(async () => undefined), channel: 'WECHAT' };
    const refused = createDirectOrder(getDb(), merchantId, wechat, { ...input('WECHAT-1'), payMethod: 'native' }, { clientIp: '203.0.113.9' });
    await expect(refused).rejects.toEqual(new DomainError('credential_unusable', { message: 'WECHAT credential not found, not approved, or not enabled' }));
    expect(await rows('WECHAT-1')).toEqual({ orders: 0, upstream: 0 });
  });
});
