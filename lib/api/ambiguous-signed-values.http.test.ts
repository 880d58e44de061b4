import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, receivingAddresses, orderCount } from '../../test/factories';
import { contractSignature } from '../../test/beds/contract-signer';
import { startTestApp, type TestApp } from '../../test/open-api-client';

/**
 * The signed text joins raw values with `&`, so a value holding `&<field>=` is signed by the same text as a request
 * with that field: such values are refused with 1001 naming the field; every other `&` is accepted.
 */
const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

/** A USDT order two cents from the last: one merchant's orders may not hold an amount and its next cent on one address. */
function usdtOrder(overrides: Record<string, string> = {}): Record<string, string> {
  counter += 1;
  return { appId: merchant.appId, merchantOrderNo: `AMB-${counter}-${Date.now()}`, pay_usdt: (1 + counter * 0.02).toFixed(2), notifyUrl: 'https://merchant.example/notify', ...overrides };
}


beforeAll(async () => {
  app = await startTestApp();
  merchant = await aMerchant();
  await receivingAddresses(1);
});
afterAll(() => app.close());

describe('values that would make the signed text ambiguous', () => {
  it('the probe’s case: both requests share one signature, so the one hiding a redirectUrl in productName is refused', async () => {
    const hiding = usdtOrder({ productName: 'VIP&redirectUrl=https://evil.example/' });
    const { productName: _hidden, ...rest } = hiding;
    const split = { ...rest, productName: 'VIP', redirectUrl: 'https://evil.example/' };
    expect(contractSignature(hiding, merchant.appSecret)).toBe(contractSignature(split, merchant.appSecret));

    const before = await orderCount();
    const { json } = await app.signedPost(SUBMIT, hiding, merchant.appSecret);
    expect(json).toEqual({
      code: 1001,
      message: 'productName must not contain "&redirectUrl=": in the signed text it would read as a separate redirectUrl field',
      data: null,
    });
    expect(await orderCount()).toBe(before);
  });

  it.each([
    ['attach', 'user=42&notifyUrl=https://evil.example/n'],
    ['attach', 'x&pay_usdt=0.01'],
    ['productName', 'a&&appId=mch_other'],
    ['productName', 'VIP&signature=0'],
    ['redirectUrl', 'https://merchant.example/return?a=1&merchantOrderNo=2'],
  ])('refuses %s %j with 1001 naming the field', async (field, value) => {
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ [field]: value }), merchant.appSecret);
    expect(json).toMatchObject({ code: 1001, data: null });
    expect(json.message).toMatch(new RegExp(`^${field} must not contain "&\\w+=":`));
  });

  it('refuses it on the query too (a merchantOrderNo may hold & and =)', async () => {
    const { json } = await app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: 'A&payType=YHT' }, merchant.appSecret);
    expect(json).toEqual({ code: 1001, message: 'merchantOrderNo must not contain "&payType=": in the signed text it would read as a separate payType field', data: null });
  });

  it.each([
    ['productName', 'Tom & Jerry'],
    ['productName', 'R&D'],
    ['attach', 'user=42&vip=true'],
    ['attach', 'a&b=c&&=d&='],
    ['attach', 'case&RedirectUrl=x'],
    ['redirectUrl', 'https://merchant.example/return?a=1&b=2'],
    ['productName', '&amp;'],
  ])('accepts %s %j: no field of the contract follows the &', async (field, value) => {
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ [field]: value }), merchant.appSecret);
    expect(json).toMatchObject({ code: 0 });
  });

  it('answers a wrong signature first: the refusal is for requests the merchant did sign', async () => {
    const fields = usdtOrder({ productName: 'VIP&redirectUrl=https://evil.example/' });
    const { json } = await app.post(SUBMIT, { ...fields, signature: '0'.repeat(32) });
    expect(json).toEqual({ code: 1002, message: 'signature error', data: null });
  });
});
