import type { ChannelCredentials, StoredCredentialFields } from '../../credentials/channel-credentials';
import { FieldErrors, text } from '../../credentials/credential-fields';
import { wechatCredentialForm } from './credential-form';
import { wechatSandboxCredential } from './sandbox-credential';

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

/** Field names in both languages, as validation errors name them (the portal form's labels are in the message catalogues). */
export const WECHAT_CREDENTIAL_FIELD_LABELS: Readonly<Record<keyof WechatCredentialInput, string>> = {
  appId: 'App ID · 应用 ID',
  mchId: 'Merchant ID (mchid) · 商户号',
  merchantCertSerial: 'Merchant certificate serial · 商户证书序列号',
  merchantPrivateKey: 'Merchant private key · 商户私钥',
  apiV3Key: 'APIv3 key · APIv3 密钥',
  platformCertificate: 'Platform certificate · 平台证书',
  wechatPayPublicKey: 'WeChat Pay public key · 微信支付公钥',
  wechatPayPublicKeyId: 'WeChat Pay public key ID · 微信支付公钥 ID',
};

const WECHAT_APP_ID = /^wx[0-9a-zA-Z]{16}$/;
const MCH_ID = /^\d{1,32}$/;
const CERT_SERIAL = /^[0-9A-Fa-f]{8,64}$/;
const PUBLIC_KEY_ID = /^PUB_KEY_ID_[0-9A-Za-z_-]{1,100}$/;

/**
 * The upstream_credentials columns a WECHAT credential fills: appid, mchid, the merchant API certificate's serial, its
 * private key, the APIv3 key, and the platform certificate and/or the WeChat Pay public key with its PUB_KEY_ID_….
 */
export interface ValidWechatCredential {
  upstreamAppId: string;
  mchId: string;
  merchantCertSerial: string;
  privateKey: string;
  apiV3Key: string;
  platformCertificate: string | null;
  upstreamPublicKey: string | null;
  upstreamPublicKeyId: string | null;
}

/** Checks a WECHAT API v3 credential; throws an invalid_credential DomainError naming every bad field. */
export function validateWechatCredential(input: Readonly<Partial<Record<keyof WechatCredentialInput, unknown>>>, now: Date): ValidWechatCredential {
  const errors = new FieldErrors(WECHAT_CREDENTIAL_FIELD_LABELS);
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

function describe(stored: StoredCredentialFields): string {
  const verification = stored.platformCertificate ? 'platform certificate' : `public key ${stored.upstreamPublicKeyId}`;
  return `appid ${stored.upstreamAppId}, mchid ${stored.mchId}, serial ${stored.merchantCertSerial}, ${verification}`;
}

export const wechatCredentials: ChannelCredentials = {
  form: wechatCredentialForm,
  fieldLabels: WECHAT_CREDENTIAL_FIELD_LABELS,
  validate: (input, now) => validateWechatCredential(input, now),
  describe,
  sandbox: wechatSandboxCredential,
};
