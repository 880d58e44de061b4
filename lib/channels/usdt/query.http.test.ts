import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/open-api-client';

const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let created: { orderNo: string; payUrl: string };

beforeAll(async () => {
  app = await startTestApp();
  merchant = await aMerchant();
  await receivingAddresses(1);
  const { json } = await app.signedPost(
    SUBMIT,
    { appId: merchant.appId, merchantOrderNo: 'Q-1', pay_usdt: '5.00', chainType: '1', notifyUrl: 'https://merchant.example/n' },
    merchant.appSecret,
  );
  created = json.data;
});
afterAll(() => app.close());

describe('query, USDT (payType absent)', () => {
  it('returns the order with the contract fields', async () => {
    const { status, json } = await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1' }, merchant.appSecret);
    expect(status).toBe(200);
    expect(json).toEqual({
      code: 0,
      message: 'success',
      data: { payUrl: created.payUrl, orderNo: created.orderNo, merchantOrderNo: 'Q-1', status: '0', pay_usdt: '5.00', pay_money: '0.00', chainType: '1', recovered: true, refundedAmount: '0.00' },
    });
  });

  it('accepts payType USDT as the same scope, signed when sent', async () => {
    const { json } = await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1', payType: 'USDT' }, merchant.appSecret);
    expect(json.data.orderNo).toBe(created.orderNo);
  });

  it('answers 1006 for another merchant asking for this order number', async () => {
    const intruder = await aMerchant();
    const { json } = await app.signedPost(QUERY, { appId: intruder.appId, merchantOrderNo: 'Q-1' }, intruder.appSecret);
    expect(json).toEqual({ code: 1006, message: 'order not found', data: null });
  });

  it('answers 1006 for an unknown number and for another channel’s scope', async () => {
    expect((await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'nope' }, merchant.appSecret)).json.code).toBe(1006);
    const alipay = await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1', payType: 'ALIPAY' }, merchant.appSecret);
    expect(alipay.json).toEqual({ code: 1006, message: 'order not found', data: null });
  });

  it('answers 1003 for an unsupported payType, 1002 for a bad signature, 1005 for an unknown appId', async () => {
    expect((await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1', payType: 'BTC' }, merchant.appSecret)).json.code).toBe(1003);
    expect((await app.post(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1', signature: 'A'.repeat(32) })).json.code).toBe(1002);
    expect((await app.signedPost(QUERY, { appId: 'mch_none', merchantOrderNo: 'Q-1' }, merchant.appSecret)).json.code).toBe(1005);
  });

  it('answers a replayed query the same way and changes nothing', async () => {
    const fields = { appId: merchant.appId, merchantOrderNo: 'Q-1' };
    const first = await app.signedPost(QUERY, fields, merchant.appSecret);
    const second = await app.signedPost(QUERY, fields, merchant.appSecret);
    expect(second.json).toEqual(first.json);
  });

  it('is allowed while order permission is off (the permission is for placing orders)', async () => {
    await getDb().execute(sql`UPDATE merchants SET order_permission = false WHERE id = ${merchant.id}`);
    const { json } = await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1' }, merchant.appSecret);
    expect(json.code).toBe(0);
    await getDb().execute(sql`UPDATE merchants SET order_permission = true WHERE id = ${merchant.id}`);
  });

  it('reports status 2 once the payment window has ended, and 1 when paid', async () => {
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '1 second' WHERE order_no = ${created.orderNo}`);
    expect((await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1' }, merchant.appSecret)).json.data.status).toBe('2');
    await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE order_no = ${created.orderNo}`);
    expect((await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'Q-1' }, merchant.appSecret)).json.data.status).toBe('1');
  });
});
