import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_V3_KEY, PLATFORM_CERTIFICATE, anAlipayCredential, aWechatCredential, rsaKeyPair } from '../../test/credential-keys';
import { isDomainError, type DomainError } from '../errors/domain-error';
import { englishText, loadDomainTranslator } from '../i18n/domain-translator';
import { validateAlipayCredential } from '../channels/alipay/credentials';
import { validateWechatCredential } from '../channels/wechat/credentials';

const NOW = new Date('2026-11-22T00:00:00Z');

function invalidCredentialOf(action: () => unknown): DomainError {
  try {
    action();
  } catch (error) {
    if (isDomainError(error, 'invalid_credential')) return error;
    throw error;
  }
  throw new Error('expected an invalid_credential DomainError');
}

/** The field errors as the CLI and an English form read them. */
function fieldErrorsOf(action: () => unknown): Record<string, string> {
  const fieldErrors = invalidCredentialOf(action).fieldErrors ?? {};
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, message]) => [field, englishText(message)]));
}

describe('ALIPAY credential validation', () => {
  it('accepts a 16-digit app id with RSA 2048 keys and returns them as PEM', () => {
    const input = anAlipayCredential();
    const valid = validateAlipayCredential(input);
    expect(valid.upstreamAppId).toBe(input.appId);
    expect(valid.privateKey).toContain('-----BEGIN PRIVATE KEY-----');
    expect(valid.upstreamPublicKey).toBe(input.alipayPublicKey);
  });

  it('accepts bare base64 keys as Alipay’s key tool prints them (PKCS#1 private, SPKI public)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'der' },
      publicKeyEncoding: { type: 'spki', format: 'der' },
    });
    const valid = validateAlipayCredential({ appId: '2021000000000001', appPrivateKey: privateKey.toString('base64'), alipayPublicKey: publicKey.toString('base64') });
    expect(valid.privateKey).toContain('-----BEGIN PRIVATE KEY-----');
    expect(valid.upstreamPublicKey).toContain('-----BEGIN PUBLIC KEY-----');
  });

  it('names every bad field', () => {
    const errors = fieldErrorsOf(() => validateAlipayCredential({ appId: 'wx1234', appPrivateKey: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----', alipayPublicKey: '' }));
    expect(Object.keys(errors).sort()).toEqual(['alipayPublicKey', 'appId', 'appPrivateKey']);
    expect(errors.appId).toMatch(/^App ID/);
    expect(errors.appPrivateKey).toMatch(/^App private key.*not a valid PEM private key/);
    expect(errors.alipayPublicKey).toMatch(/^Alipay public key.*required/);
  });

  it('takes the optional Alipay user id (seller_id): 2088 and 12 more digits, blank for none, anything else named', () => {
    expect(validateAlipayCredential(anAlipayCredential()).sellerId).toBeNull();
    expect(validateAlipayCredential({ ...anAlipayCredential(), sellerId: '  ' }).sellerId).toBeNull();
    expect(validateAlipayCredential({ ...anAlipayCredential(), sellerId: ' 2088102177296610 ' }).sellerId).toBe('2088102177296610');
    for (const sellerId of ['2088', '1088102177296610', '20881021772966100', '2088abc177296610']) {
      expect(fieldErrorsOf(() => validateAlipayCredential({ ...anAlipayCredential(), sellerId }))).toEqual({
        sellerId: 'Alipay user ID (seller_id): must be the Alipay user id: 2088 followed by 12 digits',
      });
    }
  });

  it('says the same in English for the CLI (every field, no Chinese) and in Chinese for a zh-CN form (no English)', async () => {
    const error = invalidCredentialOf(() => validateAlipayCredential({ ...anAlipayCredential(), appPrivateKey: rsaKeyPair(1024).privateKey, sellerId: '2088' }));
    expect(error.message).toBe('App private key: must be at least 2048 bits, got 1024; Alipay user ID (seller_id): must be the Alipay user id: 2088 followed by 12 digits');
    const chinese = await loadDomainTranslator('zh-CN');
    expect(chinese(error.fieldErrors!.appPrivateKey!)).toBe('应用私钥：长度须至少 2048 位，当前为 1024 位');
    expect(chinese(error.userMessage!)).toBe('请检查以下字段：应用私钥：长度须至少 2048 位，当前为 1024 位；支付宝账号 ID（seller_id）：须为 2088 开头的 16 位数字');
    expect(englishText(error.userMessage!)).toBe(`Check the fields below: ${error.message}`);
  });

  it('refuses RSA keys under 2048 bits, non-RSA keys, and a private key pasted as the public key', () => {
    const small = rsaKeyPair(1024);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(fieldErrorsOf(() => validateAlipayCredential({ ...anAlipayCredential(), appPrivateKey: small.privateKey })).appPrivateKey).toContain('at least 2048 bits, got 1024');
    expect(fieldErrorsOf(() => validateAlipayCredential({ ...anAlipayCredential(), alipayPublicKey: ec.publicKey })).alipayPublicKey).toContain('must be an RSA key');
    const input = anAlipayCredential();
    expect(fieldErrorsOf(() => validateAlipayCredential({ ...input, alipayPublicKey: input.appPrivateKey })).alipayPublicKey).toContain('not a valid PEM public key');
  });
});

describe('WECHAT credential validation', () => {
  it('accepts the platform certificate mode', () => {
    const valid = validateWechatCredential(aWechatCredential(), NOW);
    expect(valid).toMatchObject({ upstreamAppId: 'wx1234567890abcdef', mchId: '1900000109', apiV3Key: API_V3_KEY, upstreamPublicKey: null, upstreamPublicKeyId: null });
    expect(valid.platformCertificate).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('accepts the WeChat Pay public key mode with its id', () => {
    const { platformCertificate: _unused, ...rest } = aWechatCredential();
    void _unused;
    const valid = validateWechatCredential({ ...rest, wechatPayPublicKey: rsaKeyPair().publicKey, wechatPayPublicKeyId: 'PUB_KEY_ID_0114232134912410000000000001' }, NOW);
    expect(valid.platformCertificate).toBeNull();
    expect(valid.upstreamPublicKeyId).toBe('PUB_KEY_ID_0114232134912410000000000001');
    expect(valid.upstreamPublicKey).toContain('-----BEGIN PUBLIC KEY-----');
  });

  it('names the bad appid, mchid, serial, private key and APIv3 key', () => {
    const errors = fieldErrorsOf(() =>
      validateWechatCredential({ ...aWechatCredential(), appId: '2021000000000000', mchId: '19000x', merchantCertSerial: 'XYZ-123', merchantPrivateKey: 'junk', apiV3Key: 'short' }, NOW),
    );
    expect(Object.keys(errors).sort()).toEqual(['apiV3Key', 'appId', 'mchId', 'merchantCertSerial', 'merchantPrivateKey']);
    expect(errors.mchId).toContain('digits');
    expect(errors.merchantCertSerial).toContain('hexadecimal');
    expect(errors.apiV3Key).toContain('exactly 32 bytes, got 5');
  });

  it('counts the APIv3 key in bytes, not characters', () => {
    expect(fieldErrorsOf(() => validateWechatCredential({ ...aWechatCredential(), apiV3Key: 'é'.repeat(32) }, NOW)).apiV3Key).toContain('got 64');
    expect(validateWechatCredential({ ...aWechatCredential(), apiV3Key: 'é'.repeat(16) }, NOW).apiV3Key).toBe('é'.repeat(16));
  });

  it('needs a way to verify WeChat: certificate, or public key with a PUB_KEY_ID_ id, or both (a migration)', () => {
    const { platformCertificate: _unused, ...rest } = aWechatCredential();
    void _unused;
    expect(fieldErrorsOf(() => validateWechatCredential(rest, NOW)).platformCertificate).toContain('give the platform certificate, or the WeChat Pay public key');
    const publicKey = rsaKeyPair().publicKey;
    expect(validateWechatCredential({ ...rest, platformCertificate: PLATFORM_CERTIFICATE, wechatPayPublicKey: publicKey, wechatPayPublicKeyId: 'PUB_KEY_ID_0112345' }, NOW)).toMatchObject({
      platformCertificate: expect.stringContaining('BEGIN CERTIFICATE'),
      upstreamPublicKey: expect.stringContaining('PUBLIC KEY'),
      upstreamPublicKeyId: 'PUB_KEY_ID_0112345',
    });
    expect(fieldErrorsOf(() => validateWechatCredential({ ...rest, platformCertificate: PLATFORM_CERTIFICATE, wechatPayPublicKey: publicKey }, NOW)).wechatPayPublicKeyId).toContain('required');
    const noId = fieldErrorsOf(() => validateWechatCredential({ ...rest, wechatPayPublicKey: rsaKeyPair().publicKey }, NOW));
    expect(noId.wechatPayPublicKeyId).toContain('required');
    const badId = fieldErrorsOf(() => validateWechatCredential({ ...rest, wechatPayPublicKey: rsaKeyPair().publicKey, wechatPayPublicKeyId: 'KEY_1' }, NOW));
    expect(badId.wechatPayPublicKeyId).toContain('PUB_KEY_ID_');
  });

  it('refuses a certificate that is not PEM, or has expired', () => {
    expect(fieldErrorsOf(() => validateWechatCredential({ ...aWechatCredential(), platformCertificate: rsaKeyPair().publicKey }, NOW)).platformCertificate).toContain(
      'not a valid PEM certificate',
    );
    expect(fieldErrorsOf(() => validateWechatCredential(aWechatCredential(), new Date('2040-01-01T00:00:00Z'))).platformCertificate).toContain('expired');
  });
});
