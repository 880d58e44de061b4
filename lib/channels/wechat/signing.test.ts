import { createCipheriv, createPublicKey, createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PLATFORM_CERTIFICATE } from '../../../test/credential-keys';
import { SIGNING_PLATFORM_CERTIFICATE, SIGNING_PLATFORM_KEY, SIGNING_PLATFORM_SERIAL, wechatHeaders } from '../../../test/wechat-sandbox';
import { h5UrlWithRedirect, wechatDescription } from './adapter';
import { rfc3339Beijing, parseWechatTime } from './client';
import { wechatConfig, WechatNotConfigured } from './config';
import {
  authorizationHeader,
  decryptResource,
  requestSigningText,
  ResourceDecryptionFailed,
  signedMessage,
  verifyWechatSignature,
  wechatVerifier,
} from './signing';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const merchant = pair();
const wechatPay = pair();
const NOW = new Date('2026-03-01T12:00:00Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);

describe('request signing (Authorization: WECHATPAY2-SHA256-RSA2048)', () => {
  it('signs METHOD\\n/path?query\\ntimestamp\\nnonce\\nbody\\n with the merchant key, as an independent verifier checks it', () => {
    const body = '{"appid":"wx1","amount":{"total":1}}';
    const header = authorizationHeader(
      { mchId: '1900000109', serialNo: 'ABC123', privateKey: merchant.privateKey },
      { method: 'POST', pathWithQuery: '/v3/pay/transactions/native', body, timestamp: 1554208460, nonce: '593BEC0C930BF1AFEB40B4A08C8FB242' },
    );
    const match = /^WECHATPAY2-SHA256-RSA2048 mchid="1900000109",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="([A-Za-z0-9+/=]+)",timestamp="1554208460",serial_no="ABC123"$/.exec(header);
    expect(match).not.toBeNull();
    const expectedText = 'POST\n/v3/pay/transactions/native\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n' + body + '\n';
    expect(requestSigningText('post', '/v3/pay/transactions/native', '1554208460', '593BEC0C930BF1AFEB40B4A08C8FB242', body)).toBe(expectedText);
    expect(createVerify('sha256').update(expectedText).verify(merchant.publicKey, match![1]!, 'base64')).toBe(true);
    // RSA PKCS#1 v1.5 is deterministic: the independent signature is the same bytes.
    expect(match![1]).toBe(createSign('sha256').update(expectedText).sign(merchant.privateKey, 'base64'));
  });

  it('signs a GET with an empty body line', () => {
    expect(requestSigningText('GET', '/v3/pay/transactions/out-trade-no/W1?mchid=1', '1', 'n', '')).toBe('GET\n/v3/pay/transactions/out-trade-no/W1?mchid=1\n1\nn\n\n');
  });
});

describe('answer and notification verification', () => {
  const body = '{"code_url":"weixin://wxpay/bizpayurl?pr=abc"}';
  const publicKeyMode = wechatVerifier({ publicKey: wechatPay.publicKey, publicKeyId: 'PUB_KEY_ID_0112345' });
  const certificateMode = wechatVerifier({ platformCertificate: SIGNING_PLATFORM_CERTIFICATE });
  const message = (headers: Record<string, string>, text = body) => signedMessage(new Headers(headers), text);

  it('WeChat Pay public key mode: the key named by PUB_KEY_ID_… verifies', () => {
    expect(verifyWechatSignature(message(wechatHeaders(body, wechatPay.privateKey, 'PUB_KEY_ID_0112345', NOW_SECONDS)), publicKeyMode, NOW)).toEqual({ ok: true });
    expect(verifyWechatSignature(message(wechatHeaders(body, wechatPay.privateKey, 'PUB_KEY_ID_0199999', NOW_SECONDS)), publicKeyMode, NOW)).toMatchObject({ ok: false, reason: expect.stringContaining('names no key') });
    expect(verifyWechatSignature(message(wechatHeaders(body, merchant.privateKey, 'PUB_KEY_ID_0112345', NOW_SECONDS)), publicKeyMode, NOW)).toEqual({ ok: false, reason: 'signature does not match' });
  });

  it('platform certificate mode: the certificate whose serial Wechatpay-Serial names verifies (case and leading zeros aside)', () => {
    expect(certificateMode.certificates.map((certificate) => certificate.serial)).toEqual([SIGNING_PLATFORM_SERIAL]);
    const headers = wechatHeaders(body, SIGNING_PLATFORM_KEY, SIGNING_PLATFORM_SERIAL.toLowerCase(), NOW_SECONDS);
    expect(verifyWechatSignature(message(headers), certificateMode, NOW)).toEqual({ ok: true });
    expect(verifyWechatSignature(message(headers, body.replace('abc', 'abd')), certificateMode, NOW)).toEqual({ ok: false, reason: 'signature does not match' });
    const otherSerial = new Headers(headers);
    otherSerial.set('wechatpay-serial', '03B077AAFC6A7077AF92670695630E1161E26EC4');
    expect(verifyWechatSignature(signedMessage(otherSerial, body), certificateMode, NOW).ok).toBe(false);
    // A certificate and a key id of the other mode never stand in for each other.
    expect(verifyWechatSignature(message(wechatHeaders(body, SIGNING_PLATFORM_KEY, SIGNING_PLATFORM_SERIAL, NOW_SECONDS)), publicKeyMode, NOW).ok).toBe(false);
    expect(wechatVerifier({ platformCertificate: PLATFORM_CERTIFICATE }).certificates[0]?.serial).toBe('3B077AAFC6A7077AF92670695630E1161E26EC4');
  });

  it('refuses timestamps more than 300 s away, either way, and accepts the edge', () => {
    const at = (seconds: number) => verifyWechatSignature(message(wechatHeaders(body, wechatPay.privateKey, 'PUB_KEY_ID_0112345', seconds)), publicKeyMode, NOW);
    expect(at(NOW_SECONDS - 300)).toEqual({ ok: true });
    expect(at(NOW_SECONDS + 300)).toEqual({ ok: true });
    expect(at(NOW_SECONDS - 301)).toMatchObject({ ok: false, reason: expect.stringContaining('more than 300 s') });
    expect(at(NOW_SECONDS + 301)).toMatchObject({ ok: false, reason: expect.stringContaining('more than 300 s') });
  });

  it('refuses WECHATPAY/SIGNTEST/ probes and missing headers', () => {
    const headers = { ...wechatHeaders(body, wechatPay.privateKey, 'PUB_KEY_ID_0112345', NOW_SECONDS), 'wechatpay-signature': 'WECHATPAY/SIGNTEST/abc' };
    expect(verifyWechatSignature(message(headers), publicKeyMode, NOW)).toMatchObject({ ok: false, reason: expect.stringContaining('SIGNTEST') });
    const missing: Record<string, string> = wechatHeaders(body, wechatPay.privateKey, 'PUB_KEY_ID_0112345', NOW_SECONDS);
    delete missing['wechatpay-nonce'];
    expect(verifyWechatSignature(message(missing), publicKeyMode, NOW)).toMatchObject({ ok: false, reason: expect.stringContaining('headers are required') });
  });
});

describe('resource decryption (AEAD_AES_256_GCM)', () => {
  const key = 'abcdefghijklmnopqrstuvwxyz012345';
  const encrypt = (plain: string, nonce: string, aad: string, withKey = key) => {
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(withKey), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(aad));
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString('base64');
  };

  it('decrypts ciphertext‖tag with the APIv3 key, the nonce as IV and associated_data as AAD', () => {
    const plain = '{"out_trade_no":"W1","trade_state":"SUCCESS"}';
    const resource = { algorithm: 'AEAD_AES_256_GCM', ciphertext: encrypt(plain, 'fdasflkja484', 'transaction'), associated_data: 'transaction', nonce: 'fdasflkja484' };
    expect(decryptResource(resource, key)).toBe(plain);
    expect(() => decryptResource({ ...resource, associated_data: 'certificate' }, key)).toThrow(ResourceDecryptionFailed);
    expect(() => decryptResource(resource, 'zyxwvutsrqponmlkjihgfedcba012345')).toThrow(ResourceDecryptionFailed);
    const tampered = Buffer.from(resource.ciphertext, 'base64');
    tampered[3] = tampered[3]! ^ 1;
    expect(() => decryptResource({ ...resource, ciphertext: tampered.toString('base64') }, key)).toThrow('wrong key or tampered');
    expect(() => decryptResource({ ...resource, algorithm: 'AEAD_SM4_GCM' }, key)).toThrow('not supported');
    expect(() => decryptResource(resource, 'short')).toThrow('32 bytes');
  });
});

describe('request fields', () => {
  it('writes time_expire as RFC 3339 in Beijing time and reads WeChat times back', () => {
    expect(rfc3339Beijing(new Date('2026-03-01T16:30:59.900Z'))).toBe('2026-03-02T00:30:59+08:00');
    expect(parseWechatTime('2026-03-02T00:30:59+08:00')?.toISOString()).toBe('2026-03-01T16:30:59.000Z');
    expect(parseWechatTime('yesterday')).toBeUndefined();
  });

  it('cuts description to 127 characters without splitting one', () => {
    expect(wechatDescription('会员'.repeat(100))).toHaveLength(127);
    expect(Array.from(wechatDescription('😀'.repeat(200)))).toHaveLength(127);
    expect(wechatDescription('  ')).toBe('Payment');
  });

  it('appends redirect_url (the checkout, marked as a return), URL-encoded, to h5_url', () => {
    expect(h5UrlWithRedirect('https://h5.example/pay', 'https://pay.example/pay/t')).toBe('https://h5.example/pay?redirect_url=https%3A%2F%2Fpay.example%2Fpay%2Ft%3Fwxreturn%3D1');
    expect(h5UrlWithRedirect('https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1&package=2', 'https://pay.example/pay/t?x=1&y=2')).toBe(
      'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1&package=2&redirect_url=https%3A%2F%2Fpay.example%2Fpay%2Ft%3Fx%3D1%26y%3D2%26wxreturn%3D1',
    );
  });
});

describe('configuration', () => {
  it('defaults to the built-in sandbox outside production, and requires WECHAT_API_BASE_URL in production', () => {
    const development = wechatConfig({ NODE_ENV: 'development' } as NodeJS.ProcessEnv);
    expect(development.baseUrl).toMatch(/\/sandbox\/wechat$/);
    expect(development.notifyUrl).toMatch(/\/v1\/api\/callback\/wechat$/);
    expect(() => wechatConfig({ NODE_ENV: 'production' } as NodeJS.ProcessEnv)).toThrow(WechatNotConfigured);
    expect(wechatConfig({ NODE_ENV: 'production', WECHAT_API_BASE_URL: 'https://api.mch.weixin.qq.com/', WECHAT_TIMEOUT_MS: '5000' } as NodeJS.ProcessEnv)).toMatchObject({
      baseUrl: 'https://api.mch.weixin.qq.com',
      timeoutMs: 5000,
    });
  });

  it('reads a PEM public key as the verifier of public key mode', () => {
    expect(wechatVerifier({ publicKey: wechatPay.publicKey, publicKeyId: 'PUB_KEY_ID_1' }).publicKey?.key.equals(createPublicKey(wechatPay.publicKey))).toBe(true);
  });
});
