import { isDomainError } from '../../errors/domain-error';
import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, aWechatCredential } from '../../../test/factories';
import { wechatHeaders } from '../../../test/wechat-sandbox';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import { getDb } from '../../db/client';
import { type DirectPaymentRequest } from '../../orders/direct-channel-adapter';
import { wechatAccountOf } from './account';
import { startWechatPayment, wechatChannelAdapter } from './adapter';
import { closeByOutTradeNo, queryByOutTradeNo, WechatUpstreamError } from './client';
import { wechatConfig } from './config';
import { sandboxWechatKeysOf, wechatSandboxCredentialInput } from './sandbox-keys';
import { authorizationHeader } from './signing';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let credential: UsableCredential;
let counter = 0;

function request(overrides: Partial<DirectPaymentRequest> = {}): DirectPaymentRequest {
  counter += 1;
  return {
    orderNo: `W${Date.now()}${counter}`,
    amountMinor: 8850n,
    payMethod: 'native',
    subject: 'VIP month',
    expiresAt: new Date(Date.now() + 30 * 60_000),
    checkoutUrl: 'https://pay.example/pay/TOKEN_abc?lang=zh',
    clientIp: '198.51.100.23',
    ...overrides,
  };
}

async function sandboxRow(outTradeNo: string) {
  const { rows } = await getDb().execute<Record<string, unknown>>(sql`SELECT * FROM sandbox_wechat_orders WHERE out_trade_no = ${outTradeNo}`);
  return rows[0];
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  const merchant = await aMerchant();
  credential = await aWechatCredential(merchant.id);
});
afterAll(() => bed.close());

describe('adapter against the sandbox over HTTP', () => {
  it('native: POST /v3/pay/transactions/native answers a code_url, used as the cashier and the QR content', async () => {
    const input = request({ subject: '会员'.repeat(80) });
    const started = await wechatChannelAdapter.startPayment(credential, input);
    expect(started).toEqual({ upstreamOrderNo: input.orderNo, cashierUrl: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=[\w-]+$/), qrContent: started!.cashierUrl });
    const row = await sandboxRow(input.orderNo);
    expect(row).toMatchObject({ trade_type: 'NATIVE', amount_minor: '8850', mch_id: credential.mchId, app_id: credential.upstreamAppId, notify_url: `${bed.app.baseUrl}/v1/api/callback/wechat` });
    expect(Array.from(row!.description as string)).toHaveLength(127);
    expect(new Date(row!.time_expire as string).getTime()).toBe(Math.floor(input.expiresAt.getTime() / 1000) * 1000);
    expect(wechatChannelAdapter.payUrlOf({ payMethod: 'native', payToken: 'TOKEN_abc' }, undefined)).toBe(`${bed.app.baseUrl}/pay/TOKEN_abc`);
    // A repeat with the same out_trade_no answers the same code_url (WeChat is idempotent here).
    expect(await wechatChannelAdapter.startPayment(credential, input)).toEqual(started);
  });

  it('h5: scene_info carries the payer IP; the cashier is h5_url with redirect_url back to the checkout', async () => {
    const input = request({ payMethod: 'h5', amountMinor: 1n });
    const started = await wechatChannelAdapter.startPayment(credential, input);
    expect(started!.qrContent).toBeUndefined();
    expect(started!.cashierUrl).toMatch(new RegExp(`^${bed.app.baseUrl}/sandbox/wechat/pay/[\\w-]+\\?prepay_id=wx\\w+&package=\\d+&redirect_url=https%3A%2F%2Fpay\\.example%2Fpay%2FTOKEN_abc%3Flang%3Dzh%26wxreturn%3D1$`));
    expect(await sandboxRow(input.orderNo)).toMatchObject({ trade_type: 'MWEB', payer_client_ip: '198.51.100.23', amount_minor: '1' });
    const upstream = { orderId: 1, channel: 'WECHAT', upstreamOrderNo: input.orderNo, cashierUrl: started!.cashierUrl, qrContent: null, cashierIssuedAt: null, payerClientIp: null, createdAt: new Date() };
    expect(wechatChannelAdapter.payUrlOf({ payMethod: 'h5', payToken: 'TOKEN_abc' }, upstream)).toBe(started!.cashierUrl);
  });

  it('a refusal names WeChat code and message; an unknown pay method is refused before any call', async () => {
    await expect(wechatChannelAdapter.startPayment(credential, request({ amountMinor: 0n }))).rejects.toThrow('WeChat Pay refused: PARAM_ERROR amount.total must be an integer number of fen, at least 1');
    const reused = request();
    await wechatChannelAdapter.startPayment(credential, reused);
    await expect(wechatChannelAdapter.startPayment(credential, { ...reused, amountMinor: 1n })).rejects.toThrow('WeChat Pay refused: INVALID_REQUEST');
    await expect(wechatChannelAdapter.startPayment(credential, request({ payMethod: 'jsapi' }))).rejects.toThrow('payMethod jsapi is not supported');
    await expect(wechatChannelAdapter.startPayment(credential, request({ orderNo: 'W1' }))).rejects.toSatisfy((error) => isDomainError(error, 'upstream_failure'));
  });

  it('a request signed with another merchant key is 401 SIGN_ERROR', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const error = await wechatChannelAdapter.startPayment({ ...credential, privateKey: other.privateKey }, request()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WechatUpstreamError);
    expect(error).toMatchObject({ reason: 'WeChat Pay refused: SIGN_ERROR signature does not verify', details: { status: 401 } });
  });

  it('an answer whose signature does not verify with the credential’s WeChat Pay key is refused', async () => {
    const impostor = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    await expect(wechatChannelAdapter.startPayment({ ...credential, upstreamPublicKey: impostor.publicKey }, request())).rejects.toThrow(
      'WeChat Pay answer failed signature verification: signature does not match',
    );
    // The adapter names its key in Wechatpay-Serial; WeChat refuses a key id that is not the merchant's.
    await expect(wechatChannelAdapter.startPayment({ ...credential, upstreamPublicKeyId: 'PUB_KEY_ID_0100000000' }, request())).rejects.toThrow('WeChat Pay refused: INVALID_REQUEST');
  });

  it('reports an unreachable or silent WeChat as such', async () => {
    const unreachable = await startWechatPayment(credential, request(), { ...wechatConfig(), baseUrl: 'http://127.0.0.1:9' }).catch((caught: unknown) => caught);
    expect(unreachable).toMatchObject({ reason: 'WeChat Pay is unreachable', details: { unreachable: true } });
    const silent = await import('node:http').then(({ createServer }) => createServer(() => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const timedOut = await startWechatPayment(credential, request(), { ...wechatConfig(), baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 }).catch((caught: unknown) => caught);
    silent.closeAllConnections();
    silent.close();
    expect(timedOut).toMatchObject({ reason: 'WeChat Pay did not answer in time' });
  });
});

describe('sandbox WeChat Pay API', () => {
  it('query answers a signed NOTPAY, then close 204 makes it CLOSED; an unknown order is 404 ORDER_NOT_EXIST', async () => {
    const account = wechatAccountOf(credential);
    const input = request();
    await wechatChannelAdapter.startPayment(credential, input);
    const queried = await queryByOutTradeNo(wechatConfig(), account, input.orderNo);
    expect(queried).toMatchObject({ found: true, transaction: { trade_state: 'NOTPAY', out_trade_no: input.orderNo, mchid: account.mchId, appid: account.appId, amount: { total: 8850 } } });
    await closeByOutTradeNo(wechatConfig(), account, input.orderNo);
    expect(await queryByOutTradeNo(wechatConfig(), account, input.orderNo)).toMatchObject({ found: true, transaction: { trade_state: 'CLOSED' } });
    expect(await queryByOutTradeNo(wechatConfig(), account, 'W-NEVER-CREATED')).toEqual({ found: false });
    await expect(closeByOutTradeNo(wechatConfig(), account, 'W-NEVER-CREATED')).rejects.toMatchObject({ details: { status: 404, code: 'ORDER_NOT_EXIST' } });
  });

  it('refuses a missing Authorization header (401), a body naming the wrong field (400 PARAM_ERROR), and answers signed errors', async () => {
    const keys = await wechatSandboxCredentialInput(getDb());
    const body = JSON.stringify({ appid: keys.appId, mchid: keys.mchId, description: 'x', out_trade_no: 'W-PARAM-1', notify_url: 'ftp://nope', amount: { total: 1 } });
    const unsigned = await fetch(`${bed.wechatSandboxUrl}/v3/pay/transactions/native`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ code: 'SIGN_ERROR' });
    expect(unsigned.headers.get('wechatpay-serial')).toBe(keys.wechatPayPublicKeyId);
    const authorization = authorizationHeader(
      { mchId: keys.mchId, serialNo: keys.merchantCertSerial, privateKey: keys.merchantPrivateKey },
      { method: 'POST', pathWithQuery: '/v3/pay/transactions/native', body, timestamp: Math.floor(Date.now() / 1000) },
    );
    const noSerial = await fetch(`${bed.wechatSandboxUrl}/v3/pay/transactions/native`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body });
    expect(noSerial.status).toBe(400);
    expect(await noSerial.json()).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('Wechatpay-Serial header is required') });
    const bad = await fetch(`${bed.wechatSandboxUrl}/v3/pay/transactions/native`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, 'wechatpay-serial': keys.wechatPayPublicKeyId! },
      body,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: 'PARAM_ERROR', message: 'notify_url must be an absolute http(s) URL without a query' });
    const stale = authorizationHeader(
      { mchId: keys.mchId, serialNo: keys.merchantCertSerial, privateKey: keys.merchantPrivateKey },
      { method: 'POST', pathWithQuery: '/v3/pay/transactions/native', body, timestamp: Math.floor(Date.now() / 1000) - 600 },
    );
    const replayed = await fetch(`${bed.wechatSandboxUrl}/v3/pay/transactions/native`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: stale, 'wechatpay-serial': keys.wechatPayPublicKeyId! },
      body,
    });
    expect(replayed.status).toBe(401);
  });
});

describe('answers WeChat did not sign', () => {
  /** A stand-in for WeChat Pay on loopback that answers every request with `answer`. */
  async function fakeWechat(answer: (keys: Awaited<ReturnType<typeof sandboxWechatKeysOf>>) => { status: number; body: string; headers: Record<string, string> }) {
    const keys = await sandboxWechatKeysOf(getDb());
    const { createServer } = await import('node:http');
    const server = createServer((_request, response) => {
      const { status, body, headers } = answer(keys);
      response.writeHead(status, headers);
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const config = { ...wechatConfig(), baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
    return { config, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('a 204 to close without a signature is forged: close fails, nothing is taken as closed', async () => {
    const fake = await fakeWechat(() => ({ status: 204, body: '', headers: {} }));
    try {
      await expect(closeByOutTradeNo(fake.config, wechatAccountOf(credential), 'W-FORGED-CLOSE')).rejects.toThrow('WeChat Pay answer failed signature verification');
    } finally {
      await fake.close();
    }
  });

  it('a signed 204 to close is accepted', async () => {
    const fake = await fakeWechat((keys) => ({ status: 204, body: '', headers: wechatHeaders('', keys.platformPrivateKey, keys.platformPublicKeyId) }));
    try {
      await expect(closeByOutTradeNo(fake.config, wechatAccountOf(credential), 'W-SIGNED-CLOSE')).resolves.toBeUndefined();
    } finally {
      await fake.close();
    }
  });

  it('a query answer without appid is read (appid is optional there)', async () => {
    const body = JSON.stringify({ mchid: credential.mchId, out_trade_no: 'W-NO-APPID-1', trade_state: 'NOTPAY', amount: { total: 100 } });
    const fake = await fakeWechat((keys) => ({ status: 200, body, headers: { 'content-type': 'application/json', ...wechatHeaders(body, keys.platformPrivateKey, keys.platformPublicKeyId) } }));
    try {
      expect(await queryByOutTradeNo(fake.config, wechatAccountOf(credential), 'W-NO-APPID-1')).toMatchObject({ found: true, transaction: { trade_state: 'NOTPAY', out_trade_no: 'W-NO-APPID-1' } });
    } finally {
      await fake.close();
    }
  });
});
