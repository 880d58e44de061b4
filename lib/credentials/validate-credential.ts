import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { InvalidCredential } from './errors';

/**
 * What the merchant submits for ALIPAY: the Alipay app id, the app private key and the Alipay public key; optionally
 * the merchant's Alipay user id (seller_id), which notifications are then checked against.
 */
export interface AlipayCredentialInput {
  appId: string;
  appPrivateKey: string;
  alipayPublicKey: string;
  sellerId?: string;
}

/**
 * What the merchant submits for WECHAT (API v3). WeChat's signatures are verified with either the platform
 * certificate or the WeChat Pay public key with its id: exactly one of the two is given.
 */
export interface WechatCredentialInput {
  appId: string;
  mchId: string;
  merchantCertSerial: string;
  merchantPrivateKey: string;
  apiV3Key: string;
  platformCertificate?: string;
  wechatPayPublicKey?: string;
  wechatPayPublicKeyId?: string;
}

/** Field labels, as the portal shows them: every error names its field. */
export const CREDENTIAL_FIELD_LABELS: Readonly<Record<string, string>> = {
  appId: 'App ID · 应用 ID',
  appPrivateKey: 'App private key · 应用私钥',
  alipayPublicKey: 'Alipay public key · 支付宝公钥',
  sellerId: 'Alipay user ID (seller_id) · 支付宝账号 ID',
  mchId: 'Merchant ID (mchid) · 商户号',
  merchantCertSerial: 'Merchant certificate serial · 商户证书序列号',
  merchantPrivateKey: 'Merchant private key · 商户私钥',
  apiV3Key: 'APIv3 key · APIv3 密钥',
  platformCertificate: 'Platform certificate · 平台证书',
  wechatPayPublicKey: 'WeChat Pay public key · 微信支付公钥',
  wechatPayPublicKeyId: 'WeChat Pay public key ID · 微信支付公钥 ID',
};

export const MIN_RSA_BITS = 2048;
const ALIPAY_APP_ID = /^\d{16}$/;
/** Alipay user ids (the seller's in notifications): 2088 followed by 12 digits. */
const ALIPAY_USER_ID = /^2088\d{12}$/;
const WECHAT_APP_ID = /^wx[0-9a-zA-Z]{16}$/;
const MCH_ID = /^\d{1,32}$/;
const CERT_SERIAL = /^[0-9A-Fa-f]{8,64}$/;
const PUBLIC_KEY_ID = /^PUB_KEY_ID_[0-9A-Za-z_-]{1,100}$/;
const MAX_PEM_LENGTH = 20_000;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Bare base64 (as Alipay's key tool prints it) becomes DER; a PEM stays text. */
function pemOrDer(value: string): { pem: string } | { der: Buffer } | undefined {
  if (value.includes('-----BEGIN')) return { pem: value };
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  return { der: Buffer.from(compact, 'base64') };
}

function parsePrivateKey(value: string): KeyObject | undefined {
  const input = pemOrDer(value);
  if (!input) return undefined;
  try {
    if ('pem' in input) return createPrivateKey(input.pem);
    for (const type of ['pkcs8', 'pkcs1'] as const) {
      try {
        return createPrivateKey({ key: input.der, format: 'der', type });
      } catch {
        // try the next encoding
      }
    }
  } catch {
    // not a key
  }
  return undefined;
}

function parsePublicKey(value: string): KeyObject | undefined {
  const input = pemOrDer(value);
  if (!input) return undefined;
  try {
    if ('pem' in input) {
      // createPublicKey also derives a public key from a private one: a private key is not accepted here.
      if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(input.pem)) return undefined;
      return createPublicKey(input.pem);
    }
    for (const type of ['spki', 'pkcs1'] as const) {
      try {
        return createPublicKey({ key: input.der, format: 'der', type });
      } catch {
        // try the next encoding
      }
    }
  } catch {
    // not a key
  }
  return undefined;
}

function rsaProblem(key: KeyObject): string | undefined {
  if (key.asymmetricKeyType !== 'rsa') return 'must be an RSA key / 须为 RSA 密钥';
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) return `must be at least ${MIN_RSA_BITS} bits, got ${bits} / 长度须至少 ${MIN_RSA_BITS} 位`;
  return undefined;
}

class FieldErrors {
  readonly errors: Record<string, string> = {};

  add(field: string, problem: string) {
    this.errors[field] ??= `${CREDENTIAL_FIELD_LABELS[field] ?? field}: ${problem}`;
  }

  required(field: string, value: string): boolean {
    if (value !== '') return true;
    this.add(field, 'required / 必填');
    return false;
  }

  /** A private key, normalised to PKCS#8 PEM. */
  privateKey(field: string, value: string): string | undefined {
    if (!this.required(field, value)) return undefined;
    const key = value.length <= MAX_PEM_LENGTH ? parsePrivateKey(value) : undefined;
    if (!key) {
      this.add(field, 'not a valid PEM private key / 不是有效的 PEM 私钥');
      return undefined;
    }
    const problem = rsaProblem(key);
    if (problem) {
      this.add(field, problem);
      return undefined;
    }
    return key.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  /** A public key, normalised to SPKI PEM. */
  publicKey(field: string, value: string): string | undefined {
    if (!this.required(field, value)) return undefined;
    const key = value.length <= MAX_PEM_LENGTH ? parsePublicKey(value) : undefined;
    if (!key) {
      this.add(field, 'not a valid PEM public key / 不是有效的 PEM 公钥');
      return undefined;
    }
    const problem = rsaProblem(key);
    if (problem) {
      this.add(field, problem);
      return undefined;
    }
    return key.export({ format: 'pem', type: 'spki' }).toString();
  }

  certificate(field: string, value: string, now: Date): string | undefined {
    if (!this.required(field, value)) return undefined;
    let certificate: X509Certificate;
    try {
      if (value.length > MAX_PEM_LENGTH || !value.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not PEM');
      certificate = new X509Certificate(value);
    } catch {
      this.add(field, 'not a valid PEM certificate / 不是有效的 PEM 证书');
      return undefined;
    }
    const problem = rsaProblem(certificate.publicKey);
    if (problem) {
      this.add(field, `key ${problem}`);
      return undefined;
    }
    if (new Date(certificate.validTo).getTime() < now.getTime()) {
      this.add(field, `expired on ${new Date(certificate.validTo).toISOString()} / 证书已过期`);
      return undefined;
    }
    return certificate.toString();
  }

  matches(field: string, value: string, pattern: RegExp, problem: string): string | undefined {
    if (!this.required(field, value)) return undefined;
    if (!pattern.test(value)) {
      this.add(field, problem);
      return undefined;
    }
    return value;
  }

  throwIfAny() {
    if (Object.keys(this.errors).length > 0) throw new InvalidCredential(this.errors);
  }
}

export interface ValidAlipayCredential {
  channel: 'ALIPAY';
  upstreamAppId: string;
  privateKey: string;
  upstreamPublicKey: string;
  sellerId: string | null;
}

/** Checks an ALIPAY credential; throws InvalidCredential naming every bad field. Keys come back as PEM. */
export function validateAlipayCredential(input: AlipayCredentialInput): ValidAlipayCredential {
  const errors = new FieldErrors();
  const appId = errors.matches('appId', text(input.appId), ALIPAY_APP_ID, 'must be the 16-digit Alipay app id / 须为 16 位数字的支付宝应用 ID');
  const privateKey = errors.privateKey('appPrivateKey', text(input.appPrivateKey));
  const publicKey = errors.publicKey('alipayPublicKey', text(input.alipayPublicKey));
  const sellerIdText = text(input.sellerId);
  const sellerId =
    sellerIdText === '' ? null : (errors.matches('sellerId', sellerIdText, ALIPAY_USER_ID, 'must be the Alipay user id: 2088 followed by 12 digits / 须为 2088 开头的 16 位数字') ?? null);
  errors.throwIfAny();
  return { channel: 'ALIPAY', upstreamAppId: appId!, privateKey: privateKey!, upstreamPublicKey: publicKey!, sellerId };
}

export interface ValidWechatCredential {
  channel: 'WECHAT';
  upstreamAppId: string;
  mchId: string;
  merchantCertSerial: string;
  privateKey: string;
  apiV3Key: string;
  platformCertificate: string | null;
  upstreamPublicKey: string | null;
  upstreamPublicKeyId: string | null;
}

/** Checks a WECHAT API v3 credential; throws InvalidCredential naming every bad field. */
export function validateWechatCredential(input: WechatCredentialInput, now: Date): ValidWechatCredential {
  const errors = new FieldErrors();
  const appId = errors.matches('appId', text(input.appId), WECHAT_APP_ID, 'must be a WeChat appid: wx followed by 16 letters or digits / 须为 wx 开头的 18 位 appid');
  const mchId = errors.matches('mchId', text(input.mchId), MCH_ID, 'must be digits only / 须为数字');
  const serial = errors.matches(
    'merchantCertSerial',
    text(input.merchantCertSerial),
    CERT_SERIAL,
    'must be the certificate serial in hexadecimal (8–64 characters) / 须为十六进制序列号',
  );
  const privateKey = errors.privateKey('merchantPrivateKey', text(input.merchantPrivateKey));
  // The APIv3 key is used as given (an AES-256 key): not trimmed.
  const apiV3Key = typeof input.apiV3Key === 'string' ? input.apiV3Key : '';
  if (errors.required('apiV3Key', apiV3Key) && Buffer.byteLength(apiV3Key, 'utf8') !== 32) {
    errors.add('apiV3Key', `must be exactly 32 bytes, got ${Buffer.byteLength(apiV3Key, 'utf8')} / 须为 32 字节`);
  }

  const certificateText = text(input.platformCertificate);
  const publicKeyText = text(input.wechatPayPublicKey);
  const publicKeyIdText = text(input.wechatPayPublicKeyId);
  let platformCertificate: string | null = null;
  let upstreamPublicKey: string | null = null;
  let upstreamPublicKeyId: string | null = null;
  // Either or both: a merchant migrating from platform certificates to the WeChat Pay public key holds both, and
  // WeChat signs with either meanwhile.
  if (certificateText !== '') platformCertificate = errors.certificate('platformCertificate', certificateText, now) ?? null;
  if (publicKeyText !== '' || publicKeyIdText !== '') {
    upstreamPublicKey = errors.publicKey('wechatPayPublicKey', publicKeyText) ?? null;
    upstreamPublicKeyId =
      errors.matches('wechatPayPublicKeyId', publicKeyIdText, PUBLIC_KEY_ID, 'must look like PUB_KEY_ID_… / 须为 PUB_KEY_ID_ 开头') ?? null;
  }
  if (certificateText === '' && publicKeyText === '' && publicKeyIdText === '') {
    errors.add('platformCertificate', 'give the platform certificate, or the WeChat Pay public key with its id (or both while migrating) / 请填写平台证书，或微信支付公钥及其 ID（切换期间可两者都填）');
  }
  errors.throwIfAny();
  return {
    channel: 'WECHAT',
    upstreamAppId: appId!,
    mchId: mchId!,
    merchantCertSerial: serial!.toUpperCase(),
    privateKey: privateKey!,
    apiV3Key,
    platformCertificate,
    upstreamPublicKey,
    upstreamPublicKeyId,
  };
}
