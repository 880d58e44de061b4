import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant } from '../../../test/factories';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { contractSignature } from '../../../test/beds/contract-signer';
import { paySandboxWechatOrder } from '../../../sandbox/wechat/pay';
import { findAnyByOutTradeNo } from '../../../sandbox/wechat/store';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { reviewCredential, submitCredential } from '../../credentials/credentials';
import { credentialChannelNamed } from '../index';
import { anAlipayCredential } from '../../../test/credential-keys';
import { getDb } from '../../db/client';

const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>> & { credentialId: number };
let counter = 0;

function wechatSubmit(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const fields: Record<string, unknown> = {
    appId: merchant.appId,
    merchantOrderNo: `WX-${process.pid}-${counter}-${Date.now()}`,
    payType: 'WECHAT',
    payMethod: 'native',
    amount: '25.80',
    productName: 'VIP month',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  return fields;
}

const submit = (overrides: Record<string, unknown> = {}) => bed.app.signedPost(SUBMIT, wechatSubmit(overrides), merchant.appSecret);
const query = (merchantOrderNo: string, payType = 'WECHAT') => bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo, payType }, merchant.appSecret);

beforeAll(async () => {
  bed = await startSandboxTestBed();
  const shop = await aMerchant();
  const credential = await addSandboxCredential(getDb(), { appId: shop.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  merchant = { ...shop, credentialId: credential.id };
});
afterAll(() => bed.close());

describe('submit and query, WECHAT variant, against the WeChat Pay sandbox', () => {
  it('native: the order is created at WeChat Pay, payUrl is the service QR page, then paid and queried as status 2', async () => {
    const fields = wechatSubmit();
    const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(json).toMatchObject({ code: 0, message: 'ok' });
    expect(Object.keys(json.data)).toEqual(['platformOrderNo', 'merchantOrderNo', 'amount', 'credentialId', 'payUrl', 'recovered']);
    expect(json.data).toMatchObject({ merchantOrderNo: fields.merchantOrderNo, amount: '25.80', credentialId: merchant.credentialId, recovered: false });
    expect(json.data.platformOrderNo).toMatch(/^W\d{22}$/);
    expect(json.data.payUrl).toMatch(new RegExp(`^${bed.app.baseUrl}/pay/[A-Za-z0-9_-]{43}$`));

    const upstream = await findAnyByOutTradeNo(getDb(), json.data.platformOrderNo);
    expect(upstream).toMatchObject({ tradeState: 'NOTPAY', amountMinor: 2580n });

    const pending = await query(fields.merchantOrderNo as string);
    expect(pending.json).toEqual({
      code: 0,
      message: 'ok',
      data: { platformOrderNo: json.data.platformOrderNo, merchantOrderNo: fields.merchantOrderNo, amount: '25.80', status: 1, tradeNo: null, payTime: null, refundedAmount: '0.00' },
    });

    await paySandboxWechatOrder(getDb(), { outTradeNo: json.data.platformOrderNo });
    const paid = await query(fields.merchantOrderNo as string);
    expect(paid.json.data).toMatchObject({ status: 2, tradeNo: expect.stringMatching(/^\d+$/), payTime: expect.any(Number) });
    expect(Math.abs(paid.json.data.payTime - Date.now() / 1000)).toBeLessThan(120);
  });

  it('h5: payUrl is the upstream h5_url (with the return address to the checkout)', async () => {
    const { json } = await submit({ payMethod: 'h5' });
    expect(json.code).toBe(0);
    const payUrl = new URL(json.data.payUrl);
    expect(payUrl.pathname).toMatch(/^\/sandbox\/wechat\/pay\/[^/]+$/);
    expect(payUrl.searchParams.get('redirect_url')).toMatch(new RegExp(`^${bed.app.baseUrl}/pay/`));
  });

  it('h5: clientIp is sent as scene_info.payer_client_ip (IPv4 or IPv6); without it the submit request\'s address is', async () => {
    for (const clientIp of ['203.0.113.45', '2001:db8::7']) {
      const { json } = await submit({ payMethod: 'h5', clientIp });
      expect(json.code).toBe(0);
      expect(await findAnyByOutTradeNo(getDb(), json.data.platformOrderNo)).toMatchObject({ tradeType: 'MWEB', payerClientIp: clientIp });
    }
    const { json } = await submit({ payMethod: 'h5' });
    expect(isIP((await findAnyByOutTradeNo(getDb(), json.data.platformOrderNo))!.payerClientIp ?? '')).not.toBe(0);
  });

  it('a malformed clientIp is 1003 naming it, and nothing is written; clientIp is covered by the signature', async () => {
    for (const clientIp of ['999.1.1.1', 'localhost', '203.0.113.45:8080', 'fe80::1%eth0', '']) {
      const fields = wechatSubmit({ payMethod: 'h5', clientIp });
      const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
      if (clientIp === '') {
        expect(json.code).toBe(0);
        continue;
      }
      expect(json).toEqual({ code: 1003, message: 'clientIp must be an IPv4 or IPv6 address', data: null });
      const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE merchant_order_no = ${fields.merchantOrderNo as string}`);
      expect(rows[0]!.count).toBe(0);
    }
    const fields = wechatSubmit({ payMethod: 'h5', clientIp: '203.0.113.45' });
    const signedWithout = { ...fields, signature: contractSignature({ ...fields, clientIp: undefined }, merchant.appSecret) };
    delete (signedWithout as Record<string, unknown>).clientIp;
    expect((await bed.app.post(SUBMIT, { ...signedWithout, clientIp: '203.0.113.45' })).json.code).toBe(1002);
  });

  it('a retry returns the same order (recovered) and a changed amount or payMethod is 1007; another channel\'s number is 1007', async () => {
    const fields = wechatSubmit({ credentialId: merchant.credentialId });
    const first = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json;
    const again = (await bed.app.signedPost(SUBMIT, { ...fields, notifyUrl: 'https://merchant.example/other' }, merchant.appSecret)).json;
    expect(again.data).toEqual({ ...first.data, recovered: true });
    expect((await bed.app.signedPost(SUBMIT, { ...fields, amount: '25.81' }, merchant.appSecret)).json.code).toBe(1007);
    expect((await bed.app.signedPost(SUBMIT, { ...fields, payMethod: 'h5' }, merchant.appSecret)).json.code).toBe(1007);
    expect((await bed.app.signedPost(SUBMIT, { ...fields, credentialId: undefined }, merchant.appSecret)).json.code).toBe(1007);
    const alipay = { ...fields, payType: 'ALIPAY', payMethod: 'web', credentialId: undefined };
    expect((await bed.app.signedPost(SUBMIT, alipay, merchant.appSecret)).json.code).toBe(1007);
  });

  it('payMethod other than native or h5 is 1003; a bad credentialId is 1001; an ALIPAY credential is not a WECHAT one (1009)', async () => {
    for (const payMethod of ['jsapi', 'web', 'NATIVE']) {
      expect((await submit({ payMethod })).json).toEqual({ code: 1003, message: 'payMethod must be native or h5', data: null });
    }
    expect((await submit({ credentialId: 0 })).json).toEqual({ code: 1001, message: 'credentialId invalid', data: null });
    const alipayId = (await submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId: merchant.id, actor: 'test', now: new Date(), credential: anAlipayCredential() })).id;
    await reviewCredential(getDb(), { credentialId: alipayId, decision: 'approve', actor: 'test', now: new Date() });
    expect((await submit({ credentialId: alipayId })).json).toEqual({ code: 1009, message: 'WECHAT credential not found, not approved, or not enabled', data: null });
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE merchant_id = ${merchant.id} AND channel = 'WECHAT' AND credential_id = ${alipayId}`);
    expect(rows[0]!.count).toBe(0);
  });

  it('WeChat Pay unreachable is 1011 and nothing is written', async () => {
    const fields = wechatSubmit();
    process.env.WECHAT_API_BASE_URL = 'http://127.0.0.1:9/sandbox/wechat';
    try {
      const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
      expect(json).toMatchObject({ code: 1011, data: null });
    } finally {
      process.env.WECHAT_API_BASE_URL = bed.wechatSandboxUrl;
    }
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE merchant_order_no = ${fields.merchantOrderNo as string}`);
    expect(rows[0]!.count).toBe(0);
  });

  it('query of a WECHAT order as ALIPAY, or of an unknown number, is 1006', async () => {
    const fields = wechatSubmit();
    await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    const notFound = { code: 1006, message: 'order not found', data: null };
    expect((await query(fields.merchantOrderNo as string, 'ALIPAY')).json).toEqual(notFound);
    expect((await query('WX-never-created')).json).toEqual(notFound);
  });
});
