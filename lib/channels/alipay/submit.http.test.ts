import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { anAlipayCredential, aWechatCredential } from '../../../test/credential-keys';
import { contractSignature } from '../../../test/beds/contract-signer';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { QUERY, SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { deleteCredential, reviewCredential, setCredentialEnabled, submitCredential } from '../../credentials/credentials';
import { credentialChannelNamed } from '../index';
import { addSandboxCredential } from '../../cli/credential-add-command';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;

const submit = (overrides: Record<string, unknown> = {}, who = merchant) => bed.app.signedPost(SUBMIT, alipaySubmit(who.appId, overrides), who.appSecret);
const query = (merchantOrderNo: string, payType = 'ALIPAY', who = merchant) =>
  bed.app.signedPost(QUERY, { appId: who.appId, merchantOrderNo, ...(payType ? { payType } : {}) }, who.appSecret);

async function orderRow(orderNo: string) {
  const { rows } = await getDb().execute<Record<string, unknown>>(sql`
    SELECT channel, currency, status, pay_method, credential_id::int AS credential_id, credential_explicit, product_name, product_desc,
           notify_url, redirect_url, attach, requested_amount_minor::int AS amount,
           extract(epoch FROM expires_at - created_at)::int AS window_seconds,
           (SELECT count(*)::int FROM upstream_orders u WHERE u.order_id = o.id) AS upstream_rows
    FROM orders o WHERE order_no = ${orderNo}`);
  return rows[0]!;
}

/** A usable ALIPAY credential of the merchant that is not the simulator's (review + enable as asked). */
async function anotherCredential(merchantId: number, state: { approve?: boolean; enabled?: boolean; deleted?: boolean } = {}) {
  const now = new Date();
  const { id } = await submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId, actor: 'test', now, credential: anAlipayCredential() });
  if (state.approve !== false) await reviewCredential(getDb(), { credentialId: id, decision: 'approve', actor: 'test', now });
  if (state.enabled === false) await setCredentialEnabled(getDb(), { credentialId: id, scope: { kind: 'operator' }, enabled: false, actor: 'test', now });
  if (state.deleted) await deleteCredential(getDb(), { credentialId: id, scope: { kind: 'operator' }, actor: 'test', now });
  return id;
}

async function merchantIdOf(appId: string): Promise<number> {
  const { rows } = await getDb().execute<{ id: number }>(sql`SELECT id::int AS id FROM merchants WHERE app_id = ${appId}`);
  return rows[0]!.id;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterAll(() => bed.close());

describe('submit, ALIPAY variant', () => {
  it('creates the order on the usable credential and answers exactly the contract fields', async () => {
    const fields = alipaySubmit(merchant.appId);
    const { status, json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(status).toBe(200);
    expect(json).toMatchObject({ code: 0, message: 'ok' });
    expect(Object.keys(json.data)).toEqual(['platformOrderNo', 'merchantOrderNo', 'amount', 'credentialId', 'payUrl', 'recovered']);
    expect(json.data).toMatchObject({ merchantOrderNo: fields.merchantOrderNo, amount: '12.50', credentialId: merchant.credentialId, recovered: false });
    expect(json.data.platformOrderNo).toMatch(/^A\d{22}$/);
    expect(json.data.payUrl).toMatch(new RegExp(`^${bed.app.baseUrl}/pay/[A-Za-z0-9_-]{43}$`));
    expect(await orderRow(json.data.platformOrderNo)).toEqual({
      channel: 'ALIPAY',
      currency: 'CNY',
      status: 'pending',
      pay_method: 'web',
      credential_id: merchant.credentialId,
      credential_explicit: false,
      product_name: 'VIP month',
      product_desc: 'One month of VIP',
      notify_url: 'https://merchant.example/notify',
      redirect_url: 'https://merchant.example/return',
      attach: 'user=42',
      amount: 1250,
      window_seconds: 30 * 60,
      upstream_rows: 0, // page/wap pay starts at Alipay only when the payer opens payUrl
    });
  });

  it('accepts payMethod wap, amounts as text or a JSON number, and defaults productName to Payment', async () => {
    const { json } = await submit({ payMethod: 'wap', amount: 7.25, productName: undefined, productDesc: undefined });
    expect(json).toMatchObject({ code: 0, data: { amount: '7.25' } });
    expect(await orderRow(json.data.platformOrderNo)).toMatchObject({ pay_method: 'wap', product_name: 'Payment', product_desc: null, amount: 725 });
    expect((await submit({ amount: '12' })).json.data.amount).toBe('12.00');
  });

  it.each([undefined, 'WEB', 'h5', 'native', 'pc'])('refuses payMethod %s with 1001', async (payMethod) => {
    expect((await submit({ payMethod })).json).toEqual({ code: 1001, message: 'payMethod must be wap or web', data: null });
  });

  it.each([
    [{ amount: undefined }, 'amount is required'],
    [{ amount: '0' }, 'amount must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ amount: '0.00' }, 'amount must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ amount: '1.234' }, 'amount must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ amount: '-5' }, 'amount must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ amount: 'ten' }, 'amount must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ amount: '100000000.01' }, 'amount must be at most 100000000.00'],
    // An invalid amount never falls back to payMoney.
    [{ amount: '1.234', payMoney: '12.00' }, 'amount must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ amount: undefined, payMoney: '0' }, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
  ])('refuses %j with 1003 naming the field', async (overrides, message) => {
    expect((await submit(overrides)).json).toEqual({ code: 1003, message, data: null });
  });

  it('reads payMoney only when amount is absent, and returnUrl as redirectUrl; the aliased names are what is signed', async () => {
    const fields = alipaySubmit(merchant.appId, { amount: undefined, payMoney: '30.10', redirectUrl: undefined, returnUrl: 'https://merchant.example/back' });
    const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(json).toMatchObject({ code: 0, data: { amount: '30.10' } });
    expect(await orderRow(json.data.platformOrderNo)).toMatchObject({ amount: 3010, redirect_url: 'https://merchant.example/back' });

    const both = await submit({ amount: '5.00', payMoney: '6.00' });
    expect(both.json.data.amount).toBe('5.00');

    // Signed as if the canonical names had been sent: the service verifies what was actually sent, so it fails.
    const renamed = alipaySubmit(merchant.appId, { amount: undefined, payMoney: '30.10' });
    const signature = contractSignature({ ...renamed, payMoney: undefined, amount: '30.10' }, merchant.appSecret);
    expect((await bed.app.post(SUBMIT, { ...renamed, signature })).json).toEqual({ code: 1002, message: 'signature error', data: null });
  });

  it('checks notifyUrl, redirectUrl and returnUrl', async () => {
    expect((await submit({ notifyUrl: undefined })).json).toEqual({ code: 1003, message: 'notifyUrl is required', data: null });
    for (const overrides of [{ notifyUrl: 'ftp://x.example/n' }, { redirectUrl: 'not a url' }, { redirectUrl: undefined, returnUrl: 'javascript:alert(1)' }]) {
      expect((await submit(overrides)).json).toEqual({ code: 1001, message: 'invalid callback URL', data: null });
    }
  });

  it('refuses the upstream application id given as appId (1005), a bad signature (1002) and a merchant without order permission (1004)', async () => {
    const { rows } = await getDb().execute<{ upstream_app_id: string }>(sql`SELECT upstream_app_id FROM upstream_credentials WHERE id = ${merchant.credentialId}`);
    const upstreamAppId = rows[0]!.upstream_app_id;
    expect((await bed.app.signedPost(SUBMIT, alipaySubmit(upstreamAppId), merchant.appSecret)).json).toEqual({ code: 1005, message: 'merchant not found', data: null });
    expect((await bed.app.signedPost(SUBMIT, alipaySubmit(merchant.appId), 'wrong-secret')).json).toEqual({ code: 1002, message: 'signature error', data: null });
    const stopped = await aMerchant({ orderPermission: false });
    expect((await submit({}, { ...stopped, credentialId: 0 })).json).toEqual({ code: 1004, message: 'order permission disabled', data: null });
  });
});

describe('submit, ALIPAY credentials', () => {
  it.each([0, -1, 1.5, '1.0', 'abc', '2147483648', true, '1e3'])('credentialId %j is 1001 credentialId invalid', async (credentialId) => {
    expect((await submit({ credentialId })).json).toEqual({ code: 1001, message: 'credentialId invalid', data: null });
  });

  it('binds an explicit credentialId sent as a JSON number or as digits, and signs it', async () => {
    for (const credentialId of [merchant.credentialId, String(merchant.credentialId)]) {
      const { json } = await submit({ credentialId });
      expect(json).toMatchObject({ code: 0, data: { credentialId: merchant.credentialId } });
      expect(await orderRow(json.data.platformOrderNo)).toMatchObject({ credential_id: merchant.credentialId, credential_explicit: true });
    }
  });

  it('1009 for a credential that is another merchant\'s, pending, rejected, disabled, deleted, WECHAT, or unknown', async () => {
    const owner = await anAlipayMerchant();
    const ownerId = await merchantIdOf(owner.appId);
    const pending = await anotherCredential(ownerId, { approve: false });
    const disabled = await anotherCredential(ownerId, { enabled: false });
    const deleted = await anotherCredential(ownerId, { deleted: true });
    const rejected = (await submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId: ownerId, actor: 'test', now: new Date(), credential: anAlipayCredential() })).id;
    await reviewCredential(getDb(), { credentialId: rejected, decision: 'reject', reason: 'no', actor: 'test', now: new Date() });
    const wechat = (await submitCredential(getDb(), credentialChannelNamed('WECHAT'), { merchantId: ownerId, actor: 'test', now: new Date(), credential: aWechatCredential() })).id;
    await reviewCredential(getDb(), { credentialId: wechat, decision: 'approve', actor: 'test', now: new Date() });
    const refusal = { code: 1009, message: 'ALIPAY credential not found, not approved, or not enabled', data: null };
    expect((await submit({ credentialId: merchant.credentialId }, owner)).json).toEqual(refusal); // another merchant's
    for (const credentialId of [pending, rejected, disabled, deleted, wechat, 2_147_483_647]) {
      expect((await submit({ credentialId }, owner)).json).toEqual(refusal);
    }
    expect((await submit({ credentialId: owner.credentialId }, owner)).json.code).toBe(0);
  });

  it('1009 when no credentialId is sent and the merchant has no usable one', async () => {
    const bare = await aMerchant();
    const bareId = await merchantIdOf(bare.appId);
    await anotherCredential(bareId, { approve: false });
    await anotherCredential(bareId, { enabled: false });
    expect((await submit({}, { ...bare, credentialId: 0 })).json).toEqual({ code: 1009, message: 'ALIPAY credential not found, not approved, or not enabled', data: null });
  });

  it('without credentialId the usable credential with the greatest id is bound', async () => {
    const shop = await anAlipayMerchant();
    const shopId = await merchantIdOf(shop.appId);
    const newest = await anotherCredential(shopId);
    await anotherCredential(shopId, { enabled: false }); // newer, but not usable
    expect((await submit({}, shop)).json.data.credentialId).toBe(newest);
  });
});

describe('submit, ALIPAY idempotency', () => {
  it('a retry returns the original order with recovered true; notifyUrl, redirectUrl, product and attach are not compared', async () => {
    const fields = alipaySubmit(merchant.appId);
    const first = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json.data;
    const retry = await bed.app.signedPost(
      SUBMIT,
      { ...fields, notifyUrl: 'https://other.example/n', redirectUrl: 'https://other.example/r', productName: 'Other', productDesc: 'x', attach: 'y' },
      merchant.appSecret,
    );
    expect(retry.json).toEqual({ code: 0, message: 'ok', data: { ...first, recovered: true } });
    expect(await orderRow(first.platformOrderNo)).toMatchObject({ notify_url: 'https://merchant.example/notify', attach: 'user=42' });
  });

  it('1007 when amount or payMethod change, naming the field', async () => {
    const fields = alipaySubmit(merchant.appId);
    await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    const amount = await bed.app.signedPost(SUBMIT, { ...fields, amount: '12.51' }, merchant.appSecret);
    expect(amount.json).toMatchObject({ code: 1007, data: null });
    expect(amount.json.message).toMatch(/^amount differs/);
    const method = await bed.app.signedPost(SUBMIT, { ...fields, payMethod: 'wap' }, merchant.appSecret);
    expect(method.json.message).toMatch(/^payMethod differs/);
    expect(method.json.code).toBe(1007);
    // The alias carries the same amount: not a change.
    expect((await bed.app.signedPost(SUBMIT, { ...fields, amount: undefined, payMoney: '12.5' }, merchant.appSecret)).json.data.recovered).toBe(true);
  });

  it('an explicit credentialId must be sent again, the same; a retry keeps the bound credential even when a newer one exists', async () => {
    const shop = await anAlipayMerchant();
    const shopId = await merchantIdOf(shop.appId);
    const explicit = alipaySubmit(shop.appId, { credentialId: shop.credentialId });
    expect((await bed.app.signedPost(SUBMIT, explicit, shop.appSecret)).json.code).toBe(0);
    const newer = await anotherCredential(shopId);
    const omitted = await bed.app.signedPost(SUBMIT, { ...explicit, credentialId: undefined }, shop.appSecret);
    expect(omitted.json).toEqual({ code: 1007, message: `credentialId must be ${shop.credentialId}, as sent with the original order ${explicit.merchantOrderNo}`, data: null });
    expect((await bed.app.signedPost(SUBMIT, { ...explicit, credentialId: newer }, shop.appSecret)).json.code).toBe(1007);
    expect((await bed.app.signedPost(SUBMIT, explicit, shop.appSecret)).json.data).toMatchObject({ credentialId: shop.credentialId, recovered: true });

    const implicit = alipaySubmit(shop.appId);
    expect((await bed.app.signedPost(SUBMIT, implicit, shop.appSecret)).json.data.credentialId).toBe(newer);
    const newest = await anotherCredential(shopId);
    expect((await bed.app.signedPost(SUBMIT, implicit, shop.appSecret)).json.data).toMatchObject({ credentialId: newer, recovered: true });
    expect(newest).toBeGreaterThan(newer);
  });

  it('1007 when the number is already used by another channel\'s order', async () => {
    await receivingAddresses(1);
    const merchantOrderNo = `USDT-THEN-ALI-${Date.now()}`;
    const usdt = await bed.app.signedPost(
      SUBMIT,
      { appId: merchant.appId, merchantOrderNo, pay_usdt: '10.00', chainType: '1', notifyUrl: 'https://merchant.example/n' },
      merchant.appSecret,
    );
    expect(usdt.json.code).toBe(0);
    expect((await submit({ merchantOrderNo })).json).toEqual({ code: 1007, message: `merchantOrderNo ${merchantOrderNo} is already used by a USDT order`, data: null });
  });

  it('concurrent creates of one merchantOrderNo make one order', async () => {
    const fields = alipaySubmit(merchant.appId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => bed.app.signedPost(SUBMIT, fields, merchant.appSecret)));
    expect(answers.every((answer) => answer.json.code === 0)).toBe(true);
    expect(new Set(answers.map((answer) => answer.json.data.platformOrderNo)).size).toBe(1);
    expect(answers.filter((answer) => answer.json.data.recovered === false).length).toBe(1);
    const { rows } = await getDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders WHERE merchant_order_no = ${fields.merchantOrderNo}`);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('query, ALIPAY', () => {
  it('a pending order: status 1, no tradeNo nor payTime, message ok', async () => {
    const fields = alipaySubmit(merchant.appId);
    const created = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json.data;
    const { json } = await query(fields.merchantOrderNo as string);
    expect(json).toEqual({
      code: 0,
      message: 'ok',
      data: { platformOrderNo: created.platformOrderNo, merchantOrderNo: fields.merchantOrderNo, amount: '12.50', status: 1, tradeNo: null, payTime: null, refundedAmount: '0.00' },
    });
  });

  it('paid: status 2 with tradeNo and payTime in Unix seconds; closed: status 3', async () => {
    const paid = alipaySubmit(merchant.appId);
    const paidOrder = (await bed.app.signedPost(SUBMIT, paid, merchant.appSecret)).json.data;
    const paidAt = new Date('2026-01-02T03:04:05Z');
    await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = ${paidAt}, trade_no = '2026010222001400001111111111' WHERE order_no = ${paidOrder.platformOrderNo}`);
    expect((await query(paid.merchantOrderNo as string)).json.data).toMatchObject({ status: 2, tradeNo: '2026010222001400001111111111', payTime: 1767323045 });

    const closed = alipaySubmit(merchant.appId);
    const closedOrder = (await bed.app.signedPost(SUBMIT, closed, merchant.appSecret)).json.data;
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = now() WHERE order_no = ${closedOrder.platformOrderNo}`);
    expect((await query(closed.merchantOrderNo as string)).json.data).toMatchObject({ status: 3, tradeNo: null, payTime: null });
  });

  it('1006 for an unknown number, another merchant\'s order, and an order of another channel', async () => {
    const notFound = { code: 1006, message: 'order not found', data: null };
    expect((await query('NO-SUCH-ORDER')).json).toEqual(notFound);
    const fields = alipaySubmit(merchant.appId);
    await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    const other = await anAlipayMerchant();
    expect((await query(fields.merchantOrderNo as string, 'ALIPAY', other)).json).toEqual(notFound);
    expect((await query(fields.merchantOrderNo as string, 'WECHAT')).json).toEqual(notFound);
    expect((await query(fields.merchantOrderNo as string, '')).json).toEqual(notFound); // payType absent: USDT
    expect((await query(fields.merchantOrderNo as string, 'YHT')).json).toEqual(notFound);
  });

  it('a sandbox credential added by the CLI code path is bound like any other', async () => {
    const shop = await aMerchant();
    const credential = await addSandboxCredential(getDb(), { appId: shop.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
    expect((await submit({}, { ...shop, credentialId: credential.id })).json.data.credentialId).toBe(credential.id);
  });
});
