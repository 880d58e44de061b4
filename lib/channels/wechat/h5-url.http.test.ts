import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant } from '../../../test/factories';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { SANDBOX_PAYER_IP_HEADER } from '../../../sandbox/wechat/h5-visit';
import { handlePayerConfirm } from '../../../sandbox/wechat/http-api';
import { sandboxWechatPayer } from '../../../sandbox/wechat/payer-view';
import { findAnyByOutTradeNo } from '../../../sandbox/wechat/store';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { getDb } from '../../db/client';
import { wechatSandboxCredentialInput } from './sandbox-keys';
import { authorizationHeader } from './signing';

const SUBMIT = '/v1/api/open/order/submit';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

function h5Submit(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    appId: merchant.appId,
    merchantOrderNo: `H5-${process.pid}-${counter}-${Date.now()}`,
    payType: 'WECHAT',
    payMethod: 'h5',
    amount: '3.20',
    notifyUrl: 'https://merchant.example/notify',
    clientIp: '203.0.113.45',
    ...overrides,
  };
}

/** The h5_url inside a payUrl (which is h5_url plus &redirect_url=…): its pay id and package. */
function linkOf(payUrl: string) {
  const url = new URL(payUrl);
  return { payId: url.pathname.split('/').at(-1)!, package: url.searchParams.get('package')! };
}

/** The payer's phone presses Pay on the sandbox page it opened from that link, from `payerIp`. */
async function pressPay(link: { payId: string; package: string }, payerIp: string) {
  const request = new Request(`${bed.app.baseUrl}/sandbox/wechat/pay/${link.payId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', [SANDBOX_PAYER_IP_HEADER]: payerIp },
    body: new URLSearchParams({ package: link.package, lang: 'zh' }).toString(),
  });
  const response = await handlePayerConfirm(request, link.payId, getDb());
  return decodeURIComponent(response.headers.get('location') ?? '');
}

/** One signed call to the sandbox's H5 order, as WeChat's own SDKs would make it. */
async function sandboxH5Order(body: Record<string, unknown>) {
  const keys = await wechatSandboxCredentialInput(getDb());
  const text = JSON.stringify({ appid: keys.appId, mchid: keys.mchId, description: 'VIP', notify_url: 'https://merchant.example/n', amount: { total: 100 }, ...body });
  const authorization = authorizationHeader(
    { mchId: keys.mchId, serialNo: keys.merchantCertSerial, privateKey: keys.merchantPrivateKey },
    { method: 'POST', pathWithQuery: '/v3/pay/transactions/h5', body: text, timestamp: Math.floor(Date.now() / 1000) },
  );
  const response = await fetch(`${bed.wechatSandboxUrl}/v3/pay/transactions/h5`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization, 'wechatpay-serial': keys.wechatPayPublicKeyId! },
    body: text,
  });
  return { status: response.status, json: (await response.json()) as Record<string, string> };
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
});
afterAll(() => bed.close());

describe('the sandbox H5 order, as WeChat answers it', () => {
  const scene = (ip?: string) => ({ payer_client_ip: ip, h5_info: { type: 'Wap' } });

  it('refuses a missing or malformed payer_client_ip with PARAM_ERROR', async () => {
    expect(await sandboxH5Order({ out_trade_no: `WS${Date.now()}a`, scene_info: { h5_info: { type: 'Wap' } } })).toEqual({
      status: 400,
      json: { code: 'PARAM_ERROR', message: 'scene_info.payer_client_ip is required' },
    });
    for (const ip of ['localhost', '300.1.1.1', 'unknown']) {
      expect(await sandboxH5Order({ out_trade_no: `WS${Date.now()}b`, scene_info: scene(ip) })).toEqual({
        status: 400,
        json: { code: 'PARAM_ERROR', message: 'scene_info.payer_client_ip must be an IPv4 or IPv6 address' },
      });
    }
  });

  it('answers a repeat with identical parameters with a fresh h5_url, and refuses differing ones (INVALID_REQUEST)', async () => {
    const first = { out_trade_no: `WS${Date.now()}c`, time_expire: '2099-01-01T08:00:00+08:00', scene_info: scene('198.51.100.9') };
    const one = await sandboxH5Order(first);
    const two = await sandboxH5Order(first);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.json.h5_url).not.toBe(one.json.h5_url);
    for (const changed of [
      { scene_info: scene('198.51.100.10') },
      { notify_url: 'https://merchant.example/other' },
      { time_expire: '2099-01-01T09:00:00+08:00' },
      { attach: 'x' },
      { amount: { total: 101 } },
      { description: 'other' },
    ]) {
      expect(await sandboxH5Order({ ...first, ...changed }), JSON.stringify(changed)).toMatchObject({ status: 400, json: { code: 'INVALID_REQUEST' } });
    }
  });
});

describe('h5 payer page: the address and the 5-minute link', () => {
  it('refuses to pay from another address than payer_client_ip (IPv4-mapped IPv6 is the same address)', async () => {
    const { json } = await bed.app.signedPost(SUBMIT, h5Submit(), merchant.appSecret);
    const link = linkOf(json.data.payUrl);
    const page = await sandboxWechatPayer(getDb(), link.payId, { package: link.package, payerIp: '198.51.100.77' });
    expect(page).toMatchObject({ tradeState: 'NOTPAY', refusal: 'network' });
    expect(await pressPay(link, '198.51.100.77')).toContain('refused=网络环境未能通过安全验证，请稍后再试');
    expect(await findAnyByOutTradeNo(getDb(), json.data.platformOrderNo)).toMatchObject({ tradeState: 'NOTPAY' });
    expect(await sandboxWechatPayer(getDb(), link.payId, { package: link.package, payerIp: '::ffff:203.0.113.45' })).toMatchObject({ refusal: undefined });
    expect(await pressPay(link, '203.0.113.45')).not.toContain('refused=');
    expect(await findAnyByOutTradeNo(getDb(), json.data.platformOrderNo)).toMatchObject({ tradeState: 'SUCCESS' });
  });

  it('a link past its 5 minutes shows WeChat\'s expiry; a repeat submit then answers a fresh payUrl that pays', async () => {
    const fields = h5Submit();
    const first = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json;
    const soon = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json;
    expect(soon.data).toEqual({ ...first.data, recovered: true });

    // Six minutes pass, for the service's record and for the sandbox's.
    const orderNo = first.data.platformOrderNo as string;
    await getDb().execute(sql`UPDATE upstream_orders SET cashier_issued_at = now() - interval '6 minutes' WHERE upstream_order_no = ${orderNo}`);
    await getDb().execute(sql`UPDATE sandbox_wechat_orders SET h5_urls = (SELECT jsonb_object_agg(key, to_jsonb((now() - interval '6 minutes')::text)) FROM jsonb_each(h5_urls)) WHERE out_trade_no = ${orderNo}`);
    const stale = linkOf(first.data.payUrl);
    expect(await sandboxWechatPayer(getDb(), stale.payId, { package: stale.package, payerIp: '203.0.113.45' })).toMatchObject({ refusal: 'expired' });
    expect(await pressPay(stale, '203.0.113.45')).toContain('refused=支付请求已失效，请重新发起支付');

    const renewed = (await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json;
    expect(renewed).toMatchObject({ code: 0, data: { platformOrderNo: orderNo, recovered: true } });
    expect(renewed.data.payUrl).not.toBe(first.data.payUrl);
    expect(new URL(renewed.data.payUrl).searchParams.get('redirect_url')).toBe(new URL(first.data.payUrl).searchParams.get('redirect_url'));
    const fresh = linkOf(renewed.data.payUrl);
    expect(fresh.payId).toBe(stale.payId);
    const { rows } = await getDb().execute<{ issued: string }>(sql`SELECT cashier_issued_at AS issued FROM upstream_orders WHERE upstream_order_no = ${orderNo}`);
    expect(Date.now() - new Date(rows[0]!.issued).getTime()).toBeLessThan(60_000);
    expect(await pressPay(fresh, '203.0.113.45')).not.toContain('refused=');
    expect(await findAnyByOutTradeNo(getDb(), orderNo)).toMatchObject({ tradeState: 'SUCCESS' });
  });

  it('the link lifetime is SANDBOX_WECHAT_H5_URL_TTL_SECONDS', async () => {
    const { json } = await bed.app.signedPost(SUBMIT, h5Submit(), merchant.appSecret);
    const link = linkOf(json.data.payUrl);
    process.env.SANDBOX_WECHAT_H5_URL_TTL_SECONDS = '1';
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await sandboxWechatPayer(getDb(), link.payId, { package: link.package, payerIp: '203.0.113.45' })).toMatchObject({ refusal: 'expired' });
    } finally {
      delete process.env.SANDBOX_WECHAT_H5_URL_TTL_SECONDS;
    }
    expect(await sandboxWechatPayer(getDb(), link.payId, { package: link.package, payerIp: '203.0.113.45' })).toMatchObject({ refusal: undefined });
  });
});
