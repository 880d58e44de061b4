import { AlipaySdk } from 'alipay-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { alipaySandboxKeys, type AlipaySandboxKeys } from './sandbox-keys';
import { rsaKeyPair } from '../../../test/credential-keys';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { notificationForm, paySandboxTrade } from '../../../sandbox/alipay/pay';
import { findAnyByOutTradeNo } from '../../../sandbox/alipay/store';

/**
 * Proof that the simulator speaks Alipay's protocol: the official SDK, configured as a merchant configures it, signs
 * requests the simulator accepts and verifies the simulator's notifications and answers with its own code.
 */
let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let keys: AlipaySandboxKeys;

const sdk = (overrides: Partial<{ privateKey: string; alipayPublicKey: string }> = {}) =>
  new AlipaySdk({ appId: keys.appId, privateKey: overrides.privateKey ?? keys.appPrivateKey, alipayPublicKey: overrides.alipayPublicKey ?? keys.alipayPublicKey, keyType: 'PKCS8', gateway: bed.alipayGatewayUrl });

/** Beijing wall-clock time, as a merchant's code must send `timestamp` (formatted by the platform, not by our code). */
const beijing = (at = new Date()) => at.toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
const signedNow = () => ({ timestamp: beijing() });

let sequence = 0;

/** A trade opened at the simulator by the SDK's own page-pay GET URL, as a payer's browser would open it. */
async function openTrade(method = 'alipay.trade.page.pay', amount = '66.60') {
  sequence += 1;
  const outTradeNo = `SDK${Date.now()}${sequence}`;
  const url = sdk().pageExecute(method, 'GET', {
    bizContent: {
      out_trade_no: outTradeNo,
      total_amount: amount,
      subject: '测试 & test',
      product_code: method === 'alipay.trade.page.pay' ? 'FAST_INSTANT_TRADE_PAY' : 'QUICK_WAP_WAY',
      time_expire: new Date(Date.now() + 8 * 3600_000 + 600_000).toISOString().slice(0, 19).replace('T', ' '),
    },
    notifyUrl: 'http://127.0.0.1:9/unused',
    returnUrl: 'https://merchant.example/back',
    ...signedNow(),
  });
  const answer = await fetch(url, { redirect: 'manual' });
  return { outTradeNo, answer };
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  keys = await alipaySandboxKeys(getDb());
});
afterAll(() => bed.close());

describe('the Alipay simulator against alipay-sdk', () => {
  it('keeps one set of keys for every process: the second read returns the same', async () => {
    expect(await alipaySandboxKeys(getDb())).toEqual(keys);
    expect(keys.appId).toMatch(/^9021\d{12}$/);
  });

  it('accepts the SDK\'s page and wap pay URLs (signature verified) and refuses one signed with another key', async () => {
    for (const method of ['alipay.trade.page.pay', 'alipay.trade.wap.pay']) {
      const { outTradeNo, answer } = await openTrade(method);
      expect(answer.status).toBe(303);
      expect(await findAnyByOutTradeNo(getDb(), outTradeNo)).toMatchObject({ method, amountMinor: 6660n, subject: '测试 & test', returnUrl: 'https://merchant.example/back' });
    }
    const forged = new AlipaySdk({ appId: keys.appId, privateKey: rsaKeyPair().privateKey, keyType: 'PKCS8', gateway: bed.alipayGatewayUrl }).pageExecute('alipay.trade.page.pay', 'GET', {
      bizContent: { out_trade_no: 'FORGED-1', total_amount: '1.00', subject: 'x', product_code: 'FAST_INSTANT_TRADE_PAY' },
      ...signedNow(),
    });
    const refused = await fetch(forged, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('isv.invalid-signature');
  });

  it('its notifications pass the SDK\'s checkNotifySignV2; a changed field does not', async () => {
    const { outTradeNo } = await openTrade();
    const { trade } = await paySandboxTrade(getDb(), { outTradeNo }, { notify: false });
    const form = notificationForm(trade, keys);
    expect(form).toMatchObject({ trade_status: 'TRADE_SUCCESS', total_amount: '66.60', app_id: keys.appId, sign_type: 'RSA2', notify_type: 'trade_status_sync' });
    expect(sdk().checkNotifySignV2(form)).toBe(true);
    // As received: the form encoded and decoded again.
    expect(sdk().checkNotifySignV2(Object.fromEntries(new URLSearchParams(new URLSearchParams(form).toString())))).toBe(true);
    expect(sdk().checkNotifySignV2({ ...form, total_amount: '0.01' })).toBe(false);
    expect(sdk({ alipayPublicKey: rsaKeyPair().publicKey }).checkNotifySignV2(form)).toBe(false);
  });

  it('answers alipay.trade.query signed: the SDK\'s exec with validateSign accepts it, and rejects it with another Alipay key', async () => {
    const { outTradeNo } = await openTrade();
    const waiting = await sdk().exec('alipay.trade.query', { bizContent: { out_trade_no: outTradeNo }, ...signedNow() }, { validateSign: true });
    expect(waiting).toMatchObject({ code: '10000', outTradeNo, tradeStatus: 'WAIT_BUYER_PAY', totalAmount: '66.60' });

    const { trade } = await paySandboxTrade(getDb(), { outTradeNo }, { notify: false });
    const paid = await sdk().exec('alipay.trade.query', { bizContent: { out_trade_no: outTradeNo }, ...signedNow() }, { validateSign: true });
    expect(paid).toMatchObject({ code: '10000', tradeNo: trade.tradeNo, tradeStatus: 'TRADE_SUCCESS', totalAmount: '66.60' });
    expect(paid.sendPayDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const missing = await sdk().exec('alipay.trade.query', { bizContent: { out_trade_no: 'NO-SUCH-TRADE' }, ...signedNow() }, { validateSign: true });
    expect(missing).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' });

    await expect(sdk({ alipayPublicKey: rsaKeyPair().publicKey }).exec('alipay.trade.query', { bizContent: { out_trade_no: outTradeNo }, ...signedNow() }, { validateSign: true })).rejects.toThrow(
      /验签失败/,
    );
  });

  it('refuses a query signed with another application key', async () => {
    const answer = await sdk({ privateKey: rsaKeyPair().privateKey }).exec('alipay.trade.query', { bizContent: { out_trade_no: 'X' }, ...signedNow() }, { validateSign: true });
    expect(answer).toMatchObject({ code: '40002', subCode: 'isv.invalid-signature' });
  });

  it('refuses, with Alipay\'s isv.invalid-timestamp, a request whose timestamp is not Beijing time within 30 minutes', async () => {
    const bizContent = { out_trade_no: `TS${Date.now()}`, total_amount: '1.00', subject: 'x', product_code: 'FAST_INSTANT_TRADE_PAY' };
    // The SDK's own default: the host's local time (this test host is not in GMT+8).
    expect(new Date().getTimezoneOffset()).not.toBe(-480);
    const hostLocal = await fetch(sdk().pageExecute('alipay.trade.page.pay', 'GET', { bizContent }), { redirect: 'manual' });
    expect(hostLocal.status).toBe(400);
    expect(hostLocal.headers.get('content-type')).toContain('text/html');
    expect(await hostLocal.text()).toMatch(/isv\.invalid-timestamp.*非法的时间戳参数/s);
    expect(await findAnyByOutTradeNo(getDb(), bizContent.out_trade_no)).toBeUndefined();

    const minutes = (n: number) => ({ timestamp: beijing(new Date(Date.now() + n * 60_000)) });
    for (const skew of [-31, 31]) {
      const refused = await sdk().exec('alipay.trade.query', { bizContent: { out_trade_no: 'X' }, ...minutes(skew) }, { validateSign: true });
      expect(refused).toMatchObject({ code: '40002', subCode: 'isv.invalid-timestamp' });
    }
    for (const skew of [-29, 29]) {
      const accepted = await sdk().exec('alipay.trade.query', { bizContent: { out_trade_no: 'X' }, ...minutes(skew) }, { validateSign: true });
      expect(accepted).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' });
    }
    const missing = await fetch(`${bed.alipayGatewayUrl}?app_id=${keys.appId}&method=alipay.trade.page.pay&sign_type=RSA2&sign=x`, { redirect: 'manual' });
    expect(await missing.text()).toContain('isv.missing-timestamp');
  });

  it('alipay.trade.close: closes a waiting trade (then nobody can pay it); ACQ.TRADE_NOT_EXIST, ACQ.TRADE_STATUS_ERROR for a closed one, ACQ.REASON_TRADE_STATUS_INVALID for a paid one', async () => {
    const close = (biz: Record<string, string>) => sdk().exec('alipay.trade.close', { bizContent: biz, ...signedNow() }, { validateSign: true });
    expect(await close({ out_trade_no: 'NEVER-OPENED' })).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' });
    expect(await close({})).toMatchObject({ code: '40004', subCode: 'ACQ.INVALID_PARAMETER' });

    const { outTradeNo } = await openTrade();
    const trade = (await findAnyByOutTradeNo(getDb(), outTradeNo))!;
    expect(await close({ out_trade_no: outTradeNo })).toMatchObject({ code: '10000', msg: 'Success', outTradeNo, tradeNo: trade.tradeNo });
    await expect(paySandboxTrade(getDb(), { outTradeNo }, { notify: false })).rejects.toThrow('is closed');
    expect(await close({ trade_no: trade.tradeNo })).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_STATUS_ERROR' });

    const paid = await openTrade();
    await paySandboxTrade(getDb(), { outTradeNo: paid.outTradeNo }, { notify: false });
    expect(await close({ out_trade_no: paid.outTradeNo })).toMatchObject({ code: '40004', subCode: 'ACQ.REASON_TRADE_STATUS_INVALID' });
    expect(await sdk().exec('alipay.trade.query', { bizContent: { out_trade_no: paid.outTradeNo }, ...signedNow() }, { validateSign: true })).toMatchObject({
      tradeStatus: 'TRADE_SUCCESS',
    });
  });

  it('a full refund closes the trade (TRADE_CLOSED); the same refund again meets ACQ.TRADE_HAS_CLOSE, its refund query still answers it', async () => {
    const exec = (method: string, biz: Record<string, string>) => sdk().exec(method, { bizContent: biz, ...signedNow() }, { validateSign: true });
    const { outTradeNo } = await openTrade();
    const paid = await paySandboxTrade(getDb(), { outTradeNo }, { notify: false });
    const total = (Number(paid.trade.amountMinor) / 100).toFixed(2);
    const refund = { out_trade_no: outTradeNo, refund_amount: total, out_request_no: 'FULL-1' };
    expect(await exec('alipay.trade.refund', refund)).toMatchObject({ code: '10000', fundChange: 'Y' });
    expect(await exec('alipay.trade.query', { out_trade_no: outTradeNo })).toMatchObject({ tradeStatus: 'TRADE_CLOSED' });
    expect(await exec('alipay.trade.refund', refund)).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_HAS_CLOSE' });
    expect(await exec('alipay.trade.fastpay.refund.query', { out_trade_no: outTradeNo, out_request_no: 'FULL-1' })).toMatchObject({ code: '10000', refundStatus: 'REFUND_SUCCESS', refundAmount: total });
  });

  it('time_expire binds wap pay only: an unclosed page-pay trade can still be paid after it', async () => {
    const page = await openTrade('alipay.trade.page.pay');
    const wap = await openTrade('alipay.trade.wap.pay');
    const afterExpiry = new Date(Date.now() + 11 * 60_000); // time_expire is 10 minutes ahead
    expect((await paySandboxTrade(getDb(), { outTradeNo: page.outTradeNo }, { notify: false, now: afterExpiry })).trade.status).toBe('TRADE_SUCCESS');
    await expect(paySandboxTrade(getDb(), { outTradeNo: wap.outTradeNo }, { notify: false, now: afterExpiry })).rejects.toThrow('is closed');
  });
});
