import type { ChannelCredentials, StoredCredentialFields } from '../../credentials/channel-credentials';
import { FieldErrors, text } from '../../credentials/credential-fields';
import { domainMessage, type DomainMessage } from '../../errors/domain-message';
import { wechatCredentialForm, type WechatCredentialInput } from './credential-form';
import { wechatSandboxCredential } from './sandbox-credential';

/** Field names as validation errors name them (domain messages; the portal form's own labels are in its catalogue). */
export const WECHAT_CREDENTIAL_FIELD_LABELS: Readonly<Record<keyof WechatCredentialInput, DomainMessage>> = {
  appId: domainMessage('wechatCredential.labels.appId'),
  mchId: domainMessage('wechatCredential.labels.mchId'),
  merchantCertSerial: domainMessage('wechatCredential.labels.merchantCertSerial'),
  merchantPrivateKey: domainMessage('wechatCredential.labels.merchantPrivateKey'),
  apiV3Key: domainMessage('wechatCredential.labels.apiV3Key'),
  platformCertificate: domainMessage('wechatCredential.labels.platformCertificate'),
  wechatPayPublicKey: domainMessage('wechatCredential.labels.wechatPayPublicKey'),
  wechatPayPublicKeyId: domainMessage('wechatCredential.labels.wechatPayPublicKeyId'),
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
  const appId = errors.matches('appId', text(input.appId), WECHAT_APP_ID, domainMessage('wechatCredential.appIdPattern'));
  const mchId = errors.matches('mchId', text(input.mchId), MCH_ID, domainMessage('wechatCredential.mchIdPattern'));
  const serial = errors.matches(
    'merchantCertSerial',
    text(input.merchantCertSerial),
    CERT_SERIAL,
    domainMessage('wechatCredential.certSerialPattern'),
  );
  const privateKey = errors.privateKey('merchantPrivateKey', text(input.merchantPrivateKey));
  // The APIv3 key is used as given (an AES-256 key): not trimmed.
  const apiV3Key = typeof input.apiV3Key === 'string' ? input.apiV3Key : '';
  if (errors.required('apiV3Key', apiV3Key) && Buffer.byteLength(apiV3Key, 'utf8') !== 32) {
    errors.add('apiV3Key', domainMessage('wechatCredential.apiV3KeyLength', { bytes: Buffer.byteLength(apiV3Key, 'utf8') }));
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
      errors.matches('wechatPayPublicKeyId', publicKeyIdText, PUBLIC_KEY_ID, domainMessage('wechatCredential.publicKeyIdPattern')) ?? null;
  }
  if (certificateText === '' && publicKeyText === '' && publicKeyIdText === '') {
    errors.add('platformCertificate', domainMessage('wechatCredential.verificationMissing'));
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
