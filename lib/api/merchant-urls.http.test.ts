import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { orders } from '../db/schema';
import { findCheckoutOrder } from '../checkout/checkout-merchant';
import { usdtChannel } from '../channels/usdt/channel';
import { aMerchant, receivingAddresses, orderCount } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';

/**
 * Merchants' URLs are stored and linked in their WHATWG standard form, and only when their text reads as that form:
 * `https:\\evil.example` (a browser's https://evil.example/) and its kin are refused with 1001 naming the field.
 */
const SUBMIT = '/v1/api/open/order/submit';
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

/** A USDT order two cents from the last: one merchant's orders may not hold an amount and its next cent on one address. */
function usdtOrder(overrides: Record<string, string>): Record<string, string> {
  counter += 1;
  return { appId: merchant.appId, merchantOrderNo: `URL-${counter}-${Date.now()}`, pay_usdt: (2 + counter * 0.02).toFixed(2), notifyUrl: 'https://merchant.example/notify', ...overrides };
}


async function stored(orderNo: string) {
  const [row] = await getDb().select().from(orders).where(eq(orders.orderNo, orderNo));
  return row!;
}

beforeAll(async () => {
  app = await startTestApp();
  merchant = await aMerchant();
  await receivingAddresses(1);
});
afterAll(() => app.close());

describe('merchant URLs that do not read as written', () => {
  it.each([
    ['redirectUrl', 'https:\\\\evil.example', 'must not contain a backslash'],
    ['redirectUrl', 'https://merchant.example\\@evil.example/', 'must not contain a backslash'],
    ['redirectUrl', 'https://evil.example\\.merchant.example/', 'must not contain a backslash'],
    ['redirectUrl', 'https://merchant.example/back\\slash', 'must not contain a backslash'],
    ['redirectUrl', 'https://merchant.example/\u0001x', 'must not contain control characters'],
    ['redirectUrl', 'https://user:pass@merchant.example/', 'must not contain user information'],
    ['redirectUrl', 'https://merchant.example@evil.example/', 'must not contain user information'],
    ['redirectUrl', 'https://@evil.example/', 'must not contain user information'],
    ['redirectUrl', 'https:evil.example/', 'must start with http:// or https://'],
    ['redirectUrl', 'https:/evil.example/', 'must start with http:// or https://'],
    ['redirectUrl', 'https:///evil.example/', 'has a host that is not written in its standard form (evil.example)'],
    ['redirectUrl', 'https://0x7f.1/', 'has a host that is not written in its standard form (127.0.0.1)'],
    ['redirectUrl', 'https://2130706433/', 'has a host that is not written in its standard form (127.0.0.1)'],
    ['redirectUrl', 'https://evil。example/', 'has a host that is not written in its standard form (evil.example)'],
    ['redirectUrl', 'https://ｅｖｉｌ.example/', 'has a host that is not written in its standard form (evil.example)'],
    ['redirectUrl', 'https://bücher.example/', 'has a host that is not written in its standard form (xn--bcher-kva.example)'],
    ['redirectUrl', 'https://%65vil.example/', 'has a host that is not written in its standard form (evil.example)'],
    ['redirectUrl', 'https://merchant.example/return/../admin', 'has a path that does not read as written (it reads /admin)'],
    ['redirectUrl', 'https://merchant.example/%2e%2e/admin', 'has a path that does not read as written (it reads /admin)'],
    ['redirectUrl', 'https://merchant.example/./x', 'has a path that does not read as written (it reads /x)'],
    ['notifyUrl', 'https:\\\\merchant.example/notify', 'must not contain a backslash'],
    ['notifyUrl', 'https://ops:secret@merchant.example/notify', 'must not contain user information'],
  ])('refuses %s %j with 1001 naming the field', async (field, value, reason) => {
    const before = await orderCount();
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ [field]: value }), merchant.appSecret);
    expect(json).toMatchObject({ code: 1001, data: null });
    expect(json.message).toContain(`${field} ${reason}`);
    expect(await orderCount()).toBe(before);
  });

  it('keeps the contract’s answer for what is no URL at all: whitespace (tabs, newlines) included', async () => {
    for (const value of ['https://merchant.example/\tx', 'https://merchant.example/\nx', 'not a url', 'javascript:alert(1)']) {
      const { json } = await app.signedPost(SUBMIT, usdtOrder({ redirectUrl: value }), merchant.appSecret);
      expect(json, value).toEqual({ code: 1001, message: 'invalid callback URL', data: null });
    }
  });
});

describe('merchant URLs that read as written', () => {
  it.each([
    ['https://merchant.example/return?order=42&lang=en#top', 'https://merchant.example/return?order=42&lang=en#top'],
    ['HTTPS://Merchant.Example:443/return', 'https://merchant.example/return'],
    ['https://merchant.example', 'https://merchant.example/'],
    ['https://merchant.example?from=pay', 'https://merchant.example/?from=pay'],
    ['http://merchant.example:8080/r', 'http://merchant.example:8080/r'],
    ['https://merchant.example/订单?名=值', 'https://merchant.example/%E8%AE%A2%E5%8D%95?%E5%90%8D=%E5%80%BC'],
    ['https://merchant.example/a%20b?q=a+b&r=%2F', 'https://merchant.example/a%20b?q=a+b&r=%2F'],
    ['https://merchant.example/"quoted"', 'https://merchant.example/%22quoted%22'],
    ['https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example/'],
    ['https://[2606:4700:4700::1111]/r', 'https://[2606:4700:4700::1111]/r'],
  ])('accepts redirectUrl %j and stores %j', async (value, standard) => {
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ redirectUrl: value }), merchant.appSecret);
    expect(json.code).toBe(0);
    expect((await stored(json.data.orderNo)).redirectUrl).toBe(standard);
  });

  it('stores notifyUrl in its standard form too', async () => {
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ notifyUrl: 'HTTPS://Merchant.Example/notify' }), merchant.appSecret);
    expect((await stored(json.data.orderNo)).notifyUrl).toBe('https://merchant.example/notify');
  });
});

describe('the checkout links only to a URL that reads as written', () => {
  it('an order stored before the rule with https:\\\\evil.example gets no link; a standard one gets its standard form', async () => {
    const { json } = await app.signedPost(SUBMIT, usdtOrder({ redirectUrl: 'https://merchant.example/return' }), merchant.appSecret);
    const { payToken } = await stored(json.data.orderNo);
    const now = new Date();
    expect((await usdtChannel.checkoutView(getDb(), payToken, now))?.redirectUrl).toBe('https://merchant.example/return');

    await getDb().update(orders).set({ redirectUrl: 'https:\\\\evil.example' }).where(eq(orders.payToken, payToken));
    expect((await usdtChannel.checkoutView(getDb(), payToken, now))?.redirectUrl).toBeNull();
    expect((await usdtChannel.checkoutStatus(getDb(), payToken, now))?.redirectUrl).toBeNull();
    expect((await findCheckoutOrder(getDb(), payToken))?.redirectUrl).toBeNull();

    await getDb().update(orders).set({ redirectUrl: 'HTTPS://Merchant.Example' }).where(eq(orders.payToken, payToken));
    expect((await findCheckoutOrder(getDb(), payToken))?.redirectUrl).toBe('https://merchant.example/');
  });
});
