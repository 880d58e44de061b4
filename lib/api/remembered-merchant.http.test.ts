import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { setOrderPermission } from '../merchants/merchants';
import { revealAppSecret, rotateAppSecret } from '../portal/interface-keys';
import { merchantContextOf } from '../portal/merchant-context';
import { aMerchant, orderCount, receivingAddresses } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';

/**
 * The submit and the query authenticate from the merchant's remembered row (no statement of their own for it), and a
 * change of that row counts at once: a rotation, or the order permission turned off in another process, is seen by
 * the next request, which the hot statement's check of the row's version sends back to a fresh read.
 */
const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';
const PASSWORD = 'correct horse battery';
let app: TestApp;
let sequence = 0;

const submitFields = (appId: string) => {
  sequence += 1;
  return { appId, merchantOrderNo: `REMEMBERED-${sequence}-${Date.now()}`, pay_usdt: `3.${String(sequence).padStart(2, '0')}`, notifyUrl: 'https://merchant.example/notify' };
};

beforeAll(async () => {
  app = await startTestApp();
  await receivingAddresses(2);
});
afterAll(() => app.close());

describe('the remembered merchant row', () => {
  it('counts a rotation at once: the old secret is refused on the next query and submit, the new one accepted', async () => {
    const { accountId } = await signUpMerchant(getDb(), {
      merchantName: 'Remembered shop',
      email: `remembered-${process.pid}-${Date.now()}@example.com`,
      password: PASSWORD,
      clientAddress: '198.51.100.77',
      now: new Date(),
    });
    const shop = (await merchantContextOf(getDb(), accountId))!;
    await setOrderPermission(getDb(), shop.appId, true); // a new sign-up may not order until the operator allows it
    const old = await revealAppSecret(getDb(), shop, { password: PASSWORD, now: new Date() });
    const created = submitFields(shop.appId);
    expect((await app.signedPost(SUBMIT, created, old)).json.code).toBe(0);
    const query = { appId: shop.appId, merchantOrderNo: created.merchantOrderNo };
    expect((await app.signedPost(QUERY, query, old)).json.code).toBe(0);

    const fresh = await rotateAppSecret(getDb(), shop, { password: PASSWORD, now: new Date() });
    expect((await app.signedPost(QUERY, query, old)).json.code).toBe(1002);
    const before = await orderCount();
    expect((await app.signedPost(SUBMIT, submitFields(shop.appId), old)).json.code).toBe(1002);
    expect(await orderCount()).toBe(before);
    expect((await app.signedPost(QUERY, query, fresh)).json).toMatchObject({ code: 0, data: { merchantOrderNo: created.merchantOrderNo } });
    expect((await app.signedPost(SUBMIT, submitFields(shop.appId), fresh)).json.code).toBe(0);
  });

  it('counts the order permission turned off at once, and back on', async () => {
    const merchant = await aMerchant({ wholePool: true });
    expect((await app.signedPost(SUBMIT, submitFields(merchant.appId), merchant.appSecret)).json.code).toBe(0);
    expect((await app.signedPost(SUBMIT, submitFields(merchant.appId), merchant.appSecret)).json.code).toBe(0);

    await setOrderPermission(getDb(), merchant.appId, false);
    const before = await orderCount();
    expect((await app.signedPost(SUBMIT, submitFields(merchant.appId), merchant.appSecret)).json).toEqual({ code: 1004, message: 'order permission disabled', data: null });
    expect(await orderCount()).toBe(before);

    await setOrderPermission(getDb(), merchant.appId, true);
    expect((await app.signedPost(SUBMIT, submitFields(merchant.appId), merchant.appSecret)).json.code).toBe(0);
  });
});
