import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { setUsdtMaxPerOrderMinor, DEFAULT_USDT_MAX_PER_ORDER_MINOR } from './max-per-order';
import { aMerchant, receivingAddresses, orderCount } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/open-api-client';

const SUBMIT = '/v1/api/open/order/submit';
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;


function usdtOrder(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    appId: merchant.appId,
    merchantOrderNo: `ORD-${counter}-${Date.now()}`,
    chainType: '1',
    pay_usdt: '10.50',
    productName: 'VIP',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
    ...overrides,
  };
}

beforeAll(async () => {
  app = await startTestApp();
  // Its orders stand for many merchants' in the +0.01 tests: the pool's fair-use share has its own (pool-fair-use.http.test.ts).
  merchant = await aMerchant({ wholePool: true });
  await receivingAddresses(3);
});
afterAll(() => app.close());
beforeEach(() => setUsdtMaxPerOrderMinor(getDb(), DEFAULT_USDT_MAX_PER_ORDER_MINOR));

describe('submit, USDT variant', () => {
  it('creates an order with the contract fields', async () => {
    const fields = usdtOrder({ pay_usdt: '12.5' });
    const { status, json } = await app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(status).toBe(200);
    expect(json.code).toBe(0);
    expect(json.message).toBe('success');
    expect(Object.keys(json.data)).toEqual(['orderNo', 'merchantOrderNo', 'payUrl', 'pay_usdt', 'pay_money', 'status']);
    expect(json.data).toMatchObject({ merchantOrderNo: fields.merchantOrderNo, pay_usdt: '12.50', pay_money: '0.00', status: '0' });
    expect(json.data.orderNo).toMatch(/^U\d{22}$/);
    expect(json.data.payUrl).toMatch(/\/pay\/[A-Za-z0-9_-]{43}$/);
  });

  it('accepts payType USDT, an omitted chainType and a JSON number amount signed as its text', async () => {
    const fields = usdtOrder({ payType: 'USDT', chainType: undefined, pay_usdt: 7.1 });
    const body = `{"appId":"${fields.appId}","merchantOrderNo":"${fields.merchantOrderNo}","payType":"USDT","pay_usdt":7.10,"notifyUrl":"${fields.notifyUrl}"}`;
    const { contractSignature } = await import('../../../test/beds/contract-signer');
    const signature = contractSignature(
      { appId: fields.appId, merchantOrderNo: fields.merchantOrderNo, payType: 'USDT', pay_usdt: '7.10', notifyUrl: fields.notifyUrl },
      merchant.appSecret,
    );
    const { json } = await app.post(SUBMIT, `${body.slice(0, -1)},"signature":"${signature}"}`);
    expect(json.code).toBe(0);
    expect(json.data.pay_usdt).toBe('7.10');
  });

  it('reads payMoney only when pay_usdt is absent, and pay_usdt wins when both are sent', async () => {
    const alias = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: undefined, payMoney: '3.3' }), merchant.appSecret);
    expect(alias.json.data.pay_usdt).toBe('3.30');
    const both = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '4', payMoney: '9' }), merchant.appSecret);
    expect(both.json.data.pay_usdt).toBe('4.00');
  });

  it('never falls back to payMoney when pay_usdt is invalid, and writes nothing', async () => {
    const before = await orderCount();
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '1.234', payMoney: '5' }), merchant.appSecret);
    expect(json).toEqual({ code: 1003, message: 'pay_usdt must be a decimal number greater than 0 with at most 2 decimal places', data: null });
    expect(await orderCount()).toBe(before);
  });

  it.each([
    ['0', 'pay_usdt'],
    ['-1', 'pay_usdt'],
    ['1e2', 'pay_usdt'],
    ['１０', 'pay_usdt'],
    ['٣', 'pay_usdt'],
    ['abc', 'pay_usdt'],
  ])('refuses pay_usdt %j with 1003 naming the field', async (amount, field) => {
    const before = await orderCount();
    const { status, json } = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: amount }), merchant.appSecret);
    expect(status).toBe(200);
    expect(json.code).toBe(1003);
    expect(json.message).toContain(field);
    expect(await orderCount()).toBe(before);
  });

  it.each([
    [{ merchantOrderNo: undefined }, 1003, 'merchantOrderNo is required'],
    [{ merchantOrderNo: 'has space' }, 1003, 'merchantOrderNo must be 1 to 64 visible ASCII characters'],
    [{ merchantOrderNo: 'x'.repeat(65) }, 1003, 'merchantOrderNo must be 1 to 64 visible ASCII characters'],
    [{ pay_usdt: undefined }, 1003, 'pay_usdt is required'],
    [{ chainType: '2' }, 1003, 'chainType 2 (ERC20) is not enabled on this service'],
    [{ chainType: '9' }, 1003, 'chainType must be one of 1 (TRC20), 2 (ERC20), 3 (BEP20), 4 (POLYGON)'],
    [{ payType: 'BTC' }, 1003, 'payType must be one of USDT, ALIPAY, WECHAT, YHT'],
    [{ notifyUrl: undefined }, 1003, 'notifyUrl is required'],
    [{ notifyUrl: 'not a url' }, 1001, 'invalid callback URL'],
    [{ notifyUrl: 'ftp://merchant.example/n' }, 1001, 'invalid callback URL'],
    [{ notifyUrl: 'javascript:alert(1)' }, 1001, 'invalid callback URL'],
    [{ redirectUrl: '/relative/path' }, 1001, 'invalid callback URL'],
    [{ productName: 'p'.repeat(129) }, 1003, 'productName must be at most 128 characters'],
    [{ attach: 'a'.repeat(1025) }, 1003, 'attach must be at most 1024 characters'],
  ])('refuses %j with %i', async (overrides, code, message) => {
    const before = await orderCount();
    const { json } = await app.signedPost(SUBMIT, usdtOrder(overrides), merchant.appSecret);
    expect(json).toEqual({ code, message, data: null });
    expect(await orderCount()).toBe(before);
  });

  it('answers 1002 for a wrong signature, a tampered field and another merchant secret', async () => {
    const fields = usdtOrder();
    const other = await aMerchant();
    const wrongSecret = await app.signedPost(SUBMIT, fields, other.appSecret);
    expect(wrongSecret.json).toEqual({ code: 1002, message: 'signature error', data: null });
    const { contractSignature } = await import('../../../test/beds/contract-signer');
    const tampered = await app.post(SUBMIT, { ...fields, signature: contractSignature(fields, merchant.appSecret), pay_usdt: '0.01' });
    expect(tampered.json.code).toBe(1002);
    const extraField = await app.post(SUBMIT, { ...fields, signature: contractSignature(fields, merchant.appSecret), extra: 'x' });
    expect(extraField.json.code).toBe(1002);
  });

  it('signs empty values out: an empty attach does not change the signature', async () => {
    const fields = usdtOrder({ attach: '' });
    const { contractSignature } = await import('../../../test/beds/contract-signer');
    const { attach: _dropped, ...withoutAttach } = fields;
    const { json } = await app.post(SUBMIT, { ...fields, signature: contractSignature(withoutAttach, merchant.appSecret) });
    expect(json.code).toBe(0);
  });

  it('answers 1003 without appId or signature, 1005 for an unknown appId', async () => {
    expect((await app.post(SUBMIT, { merchantOrderNo: 'x' })).json).toEqual({ code: 1003, message: 'appId is required', data: null });
    expect((await app.post(SUBMIT, usdtOrder())).json).toEqual({ code: 1003, message: 'signature is required', data: null });
    const unknown = await app.signedPost(SUBMIT, usdtOrder({ appId: 'mch_unknown' }), merchant.appSecret);
    expect(unknown.json).toEqual({ code: 1005, message: 'merchant not found', data: null });
  });

  it('answers 1004 while the merchant may not place orders', async () => {
    const blocked = await aMerchant({ orderPermission: false });
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ appId: blocked.appId }), blocked.appSecret);
    expect(json).toEqual({ code: 1004, message: 'order permission disabled', data: null });
  });

  it('answers 1008 over the platform per-order limit', async () => {
    await setUsdtMaxPerOrderMinor(getDb(), 10000n);
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '100.01' }), merchant.appSecret);
    expect(json).toEqual({ code: 1008, message: 'pay_usdt exceeds the platform per-order limit of 100.00 USDT', data: null });
    expect((await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '100.00' }), merchant.appSecret)).json.code).toBe(0);
  });

  it('is idempotent by merchantOrderNo: a replay returns the original order, a changed amount is 1007', async () => {
    const fields = usdtOrder({ pay_usdt: '21' });
    const first = await app.signedPost(SUBMIT, fields, merchant.appSecret);
    const before = await orderCount();
    const replay = await app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(replay.json).toEqual(first.json);
    const changedNotifyUrl = await app.signedPost(SUBMIT, { ...fields, notifyUrl: 'https://other.example/n' }, merchant.appSecret);
    expect(changedNotifyUrl.json.data.orderNo).toBe(first.json.data.orderNo);
    const changedAmount = await app.signedPost(SUBMIT, { ...fields, pay_usdt: '22' }, merchant.appSecret);
    expect(changedAmount.json.code).toBe(1007);
    expect(changedAmount.json.message).toContain('pay_usdt');
    expect(await orderCount()).toBe(before);
  });

  it('applies the +0.01 rule per address and answers 1010 when no slot is free', async () => {
    const amounts: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const { json } = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '33.00' }), merchant.appSecret);
      amounts.push(json.data.pay_usdt);
    }
    expect(amounts.sort()).toEqual(['33.00', '33.00', '33.00', '33.01', '33.01', '33.01']);
    const full = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '33.00' }), merchant.appSecret);
    expect(full.json.code).toBe(1010);
    expect(full.json.message).toContain('pay_usdt 33.00');
  });

  it('frees the slot of a pending order whose window ended more than the cool-down ago', async () => {
    const taken: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      taken.push((await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '44.00' }), merchant.appSecret)).json.data.orderNo);
    }
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '61 minutes' WHERE order_no = ${taken[0]!}`);
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ pay_usdt: '44.00' }), merchant.appSecret);
    expect(json.code).toBe(0);
    const { rows } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no = ${taken[0]!}`);
    expect(rows[0]!.status).toBe('closed');
  });

  it('refuses a repeat of another channel’s merchantOrderNo with 1007', async () => {
    const fields = usdtOrder();
    await app.signedPost(SUBMIT, fields, merchant.appSecret);
    await getDb().execute(sql`UPDATE orders SET channel = 'YHT' WHERE merchant_order_no = ${fields.merchantOrderNo}`);
    const { json } = await app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(json.code).toBe(1007);
  });
});
