import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aMerchant, aWechatCredential, aWechatOrder } from '../../../test/factories';
import { startMerchantReceiver } from '../../../test/beds/merchant-receiver';
import { encryptedResource, notificationBody, SIGNING_PLATFORM_CERTIFICATE, SIGNING_PLATFORM_KEY, SIGNING_PLATFORM_SERIAL, wechatHeaders } from '../../../test/wechat-sandbox';
import { WECHAT_CALLBACK, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { rsaKeyPair } from '../../../test/credential-keys';
import { notificationOf, paySandboxWechatOrder } from '../../../sandbox/wechat/pay';
import { findByPayId } from '../../../sandbox/wechat/store';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import { getDb } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import { NotificationWorker } from '../../notifications/notification-worker';
import { notificationFieldsOf } from '../index';
import { wechatSandboxCredentialInput } from './sandbox-keys';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let credential: UsableCredential;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
let sandboxKeys: { apiV3Key: string; platformPrivateKey: string; platformPublicKeyId: string };

async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(`${bed.app.baseUrl}${WECHAT_CALLBACK}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

async function orderState(orderNo: string) {
  const { rows } = await getDb().execute<{ id: number; status: string; paid_via: string | null; trade_no: string | null; paid_at: string | null }>(
    sql`SELECT id::int AS id, status, paid_via, trade_no, paid_at FROM orders WHERE order_no = ${orderNo}`,
  );
  return rows[0]!;
}

async function recorded(outTradeNo: string) {
  const { rows } = await getDb().execute<{ verdict: string; answer: string | null; order_id: number | null; detail: string | null; trade_no: string | null }>(
    sql`SELECT verdict, answer, order_id::int AS order_id, detail, trade_no FROM upstream_callbacks WHERE channel = 'WECHAT' AND out_trade_no = ${outTradeNo} ORDER BY id`,
  );
  return rows;
}

async function lastRecorded() {
  const { rows } = await getDb().execute<{ verdict: string; answer: string | null; detail: string | null; raw_body: string | null }>(
    sql`SELECT verdict, answer, detail, raw_body FROM upstream_callbacks WHERE channel = 'WECHAT' ORDER BY id DESC LIMIT 1`,
  );
  return rows[0]!;
}

async function notificationCount(orderId: number): Promise<number> {
  const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM notifications WHERE order_id = ${orderId}`);
  return rows[0]!.count;
}

/** What WeChat would decrypt to for a paid order; `overrides` tamper with it. */
function transaction(order: OrderRow, overrides: Record<string, unknown> = {}) {
  return {
    appid: credential.upstreamAppId,
    mchid: credential.mchId,
    out_trade_no: order.orderNo,
    transaction_id: `4200000${Date.now()}`,
    trade_type: 'NATIVE',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    bank_type: 'OTHERS',
    attach: '',
    success_time: new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19) + '+08:00',
    payer: { openid: 'o1' },
    amount: { total: Number(order.payAmountMinor), payer_total: Number(order.payAmountMinor), currency: 'CNY', payer_currency: 'CNY' },
    ...overrides,
  };
}

/** A notification signed with the sandbox's WeChat Pay key and encrypted under its APIv3 key, built by the test itself. */
function genuine(plain: unknown, timestamp?: number) {
  const body = notificationBody(encryptedResource(plain, sandboxKeys.apiV3Key));
  return { body, headers: wechatHeaders(body, sandboxKeys.platformPrivateKey, sandboxKeys.platformPublicKeyId, timestamp) };
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  credential = await aWechatCredential(merchant.id);
  const input = await wechatSandboxCredentialInput(getDb());
  const { rows } = await getDb().execute<{ platform_private_key: string }>(sql`SELECT platform_private_key FROM sandbox_wechat_keys`);
  sandboxKeys = { apiV3Key: input.apiV3Key, platformPrivateKey: rows[0]!.platform_private_key, platformPublicKeyId: input.wechatPayPublicKeyId! };
  receiver = await startMerchantReceiver((appId) => (appId === merchant.appId ? merchant.appSecret : undefined));
});
afterAll(async () => {
  await receiver.close();
  await bed.close();
});
beforeEach(() => {
  receiver.received.length = 0;
});

describe('WeChat Pay notification', () => {
  it('a payment at the sandbox pays the order (wechat-notify, transaction_id, success_time) and the merchant gets the signed WECHAT notification', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential, amountMinor: 2580n, notifyUrl: receiver.url, attach: 'user=7' });
    const { notify, order: upstream } = await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo });
    expect(notify).toMatchObject({ httpStatus: 204, body: '', acknowledged: true });

    const state = await orderState(order.orderNo);
    expect(state).toMatchObject({ status: 'paid', paid_via: 'wechat-notify', trade_no: upstream.transactionId });
    expect(Math.floor(new Date(state.paid_at!).getTime() / 1000)).toBe(Math.floor(upstream.successTime!.getTime() / 1000));
    expect(await recorded(order.orderNo)).toMatchObject([{ verdict: 'paid', answer: 'HTTP 204', order_id: state.id, trade_no: upstream.transactionId }]);

    expect(await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 2_000 }).runOnce()).toBeGreaterThanOrEqual(1);
    const notification = receiver.received.find((entry) => entry.form.platformOrderNo === order.orderNo)!;
    expect(notification.signatureValid).toBe(true);
    expect(notification.form).toMatchObject({ appId: merchant.appId, platformOrderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, payType: 'WECHAT', amount: '25.80', status: 'PAID', tradeNo: upstream.transactionId, attach: 'user=7' });
  });

  it('a repeated notification is answered 204 and changes nothing', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo });
    const again = await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo });
    expect(again).toMatchObject({ newlyPaid: false, notify: { httpStatus: 204 } });
    const state = await orderState(order.orderNo);
    expect(await notificationCount(state.id)).toBe(1);
    expect((await recorded(order.orderNo)).map((entry) => entry.verdict)).toEqual(['paid', 'duplicate']);
  });

  it('a forged signature, a tampered body and a SIGNTEST probe are refused 401 and recorded; the order stays pending', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    const forger = rsaKeyPair();
    const body = genuine(transaction(order)).body;
    const forged = await post(body, wechatHeaders(body, forger.privateKey, sandboxKeys.platformPublicKeyId));
    expect(forged).toEqual({ status: 401, json: { code: 'FAIL', message: 'signature verification failed' } });
    expect(await lastRecorded()).toMatchObject({ verdict: 'bad_signature', answer: 'HTTP 401 FAIL', detail: 'signature does not match', raw_body: body });

    const signed = genuine(transaction(order));
    const tampered = await post(signed.body.replace('"summary":"支付成功"', '"summary":"x"'), signed.headers);
    expect(tampered.status).toBe(401);

    const probe = await post(signed.body, { ...signed.headers, 'wechatpay-signature': 'WECHATPAY/SIGNTEST/abc' });
    expect(probe.status).toBe(401);
    expect((await lastRecorded()).detail).toContain('SIGNTEST');

    const unknownSerial = await post(signed.body, { ...signed.headers, 'wechatpay-serial': 'PUB_KEY_ID_0100000000000' });
    expect(unknownSerial.status).toBe(401);
    expect((await lastRecorded()).detail).toContain('names no key');
    expect((await orderState(order.orderNo)).status).toBe('pending');
  });

  it('a replayed notification (timestamp more than 300 s old) is refused even though its signature is genuine', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    const { rows } = await getDb().execute<Record<string, unknown>>(sql`SELECT * FROM sandbox_wechat_orders WHERE out_trade_no = ${order.orderNo}`);
    expect(rows[0]).toMatchObject({ trade_state: 'SUCCESS' });
    const sandboxOrder = await findByPayId(getDb(), rows[0]!.pay_id as string);
    const replay = await notificationOf(getDb(), sandboxOrder!, new Date(Date.now() - 301_000));
    const answer = await post(replay.body, replay.headers);
    expect(answer.status).toBe(401);
    expect((await lastRecorded()).detail).toMatch(/Wechatpay-Timestamp is 30\d s away from our clock \(more than 300 s\): a replay/);
    expect((await orderState(order.orderNo)).status).toBe('pending');
  });

  it('a genuinely signed notification for another amount is refused 400 amount_mismatch; the order stays pending', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential, amountMinor: 10000n });
    const { body, headers } = genuine(transaction(order, { amount: { total: 1, payer_total: 1, currency: 'CNY' } }));
    expect(await post(body, headers)).toEqual({ status: 400, json: { code: 'FAIL', message: 'amount mismatch' } });
    expect(await recorded(order.orderNo)).toMatchObject([{ verdict: 'amount_mismatch', answer: 'HTTP 400 FAIL', detail: "notification amount.total 1 fen differs from the order's 10000 fen" }]);
    expect((await orderState(order.orderNo)).status).toBe('pending');
  });

  it('an unknown order is 404 and recorded', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    const { body, headers } = genuine(transaction(order, { out_trade_no: 'W-NO-SUCH-ORDER' }));
    expect((await post(body, headers)).status).toBe(404);
    expect(await recorded('W-NO-SUCH-ORDER')).toMatchObject([{ verdict: 'unknown_order', answer: 'HTTP 404 FAIL' }]);
  });

  it('non-success states are acknowledged and ignored; a refund event whose resource is no refund is malformed', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    const notPaid = genuine(transaction(order, { trade_state: 'NOTPAY', transaction_id: undefined }));
    expect((await post(notPaid.body, notPaid.headers)).status).toBe(204);
    const refund = notificationBody(encryptedResource(transaction(order), sandboxKeys.apiV3Key), 'REFUND.SUCCESS');
    expect((await post(refund, wechatHeaders(refund, sandboxKeys.platformPrivateKey, sandboxKeys.platformPublicKeyId))).status).toBe(400);
    expect((await recorded(order.orderNo)).map((entry) => entry.verdict)).toEqual(['ignored']);
    expect((await orderState(order.orderNo)).status).toBe('pending');
  });

  it('a payment after the order closed is acknowledged, recorded as late, and does not pay', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = now() WHERE id = ${order.id}`);
    const { body, headers } = genuine(transaction(order));
    expect((await post(body, headers)).status).toBe(204);
    expect(await recorded(order.orderNo)).toMatchObject([{ verdict: 'late_payment', answer: 'HTTP 204' }]);
    expect(await orderState(order.orderNo)).toMatchObject({ status: 'closed' });
    expect(await notificationCount(order.id)).toBe(0);
  });

  it('platform certificate mode: the credential whose certificate serial is named verifies, its APIv3 key decrypts', async () => {
    const apiV3Key = 'Cert-mode-api-v3-key-0123456789a';
    const certificateCredential = await aWechatCredential(merchant.id, {
      appId: 'wxcertmode00000001',
      mchId: '1900000555',
      merchantCertSerial: 'ABCDEF0123456789',
      merchantPrivateKey: rsaKeyPair().privateKey,
      apiV3Key,
      platformCertificate: SIGNING_PLATFORM_CERTIFICATE,
    });
    const { order } = await aWechatOrder({
      merchantId: merchant.id,
      credential: certificateCredential,
      upstream: { upstreamOrderNo: 'x', cashierUrl: 'weixin://wxpay/bizpayurl?pr=cert', qrContent: 'weixin://wxpay/bizpayurl?pr=cert' },
    });
    const plain = { ...transaction(order), appid: 'wxcertmode00000001', mchid: '1900000555' };
    const body = notificationBody(encryptedResource(plain, apiV3Key));
    expect((await post(body, wechatHeaders(body, SIGNING_PLATFORM_KEY, SIGNING_PLATFORM_SERIAL))).status).toBe(204);
    expect(await orderState(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'wechat-notify', trade_no: plain.transaction_id });

    // The sandbox credential's keys cannot pay an order bound to the certificate-mode credential.
    const { order: other } = await aWechatOrder({
      merchantId: merchant.id,
      credential: certificateCredential,
      upstream: { upstreamOrderNo: 'y', cashierUrl: 'weixin://wxpay/bizpayurl?pr=cert2', qrContent: 'weixin://wxpay/bizpayurl?pr=cert2' },
    });
    const crossed = genuine(transaction(other));
    expect(await post(crossed.body, crossed.headers)).toEqual({ status: 400, json: { code: 'FAIL', message: 'wrong merchant' } });
    expect(await recorded(other.orderNo)).toMatchObject([{ verdict: 'wrong_merchant' }]);
    expect((await orderState(other.orderNo)).status).toBe('pending');
  });

  it('concurrent copies of one notification pay once', async () => {
    const { order } = await aWechatOrder({ merchantId: merchant.id, credential });
    const { body, headers } = genuine(transaction(order));
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body, headers)));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204, 204]);
    expect((await recorded(order.orderNo)).map((entry) => entry.verdict).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'paid']);
    expect(await notificationCount(order.id)).toBe(1);
  });

  it('a body that is not a notification is 400 malformed once the signature holds', async () => {
    const body = '{"hello":"world"}';
    expect((await post(body, wechatHeaders(body, sandboxKeys.platformPrivateKey, sandboxKeys.platformPublicKeyId))).status).toBe(400);
    expect(await lastRecorded()).toMatchObject({ verdict: 'malformed' });
  });
});
