import type { ChannelCredentials } from '../../credentials/channel-credentials';
import { FieldErrors, text } from '../../credentials/credential-fields';
import { domainMessage, type DomainMessage } from '../../errors/domain-message';
import { alipayCredentialForm } from './credential-form';
import { alipaySandboxCredential } from './sandbox-credential';

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

/** Field names as validation errors name them (domain messages; the portal form's own labels are in its catalogue). */
export const ALIPAY_CREDENTIAL_FIELD_LABELS: Readonly<Record<keyof AlipayCredentialInput, DomainMessage>> = {
  appId: domainMessage('alipayCredential.labels.appId'),
  appPrivateKey: domainMessage('alipayCredential.labels.appPrivateKey'),
  alipayPublicKey: domainMessage('alipayCredential.labels.alipayPublicKey'),
  sellerId: domainMessage('alipayCredential.labels.sellerId'),
};

const ALIPAY_APP_ID = /^\d{16}$/;
/** Alipay user ids (the seller's in notifications): 2088 followed by 12 digits. */
const ALIPAY_USER_ID = /^2088\d{12}$/;

/**
 * The upstream_credentials columns an ALIPAY credential fills: the app id, the app private key, the Alipay public key
 * and, optionally, the seller's Alipay user id (2088…), which genuine notifications name as seller_id.
 */
export interface ValidAlipayCredential {
  upstreamAppId: string;
  privateKey: string;
  upstreamPublicKey: string;
  sellerId: string | null;
}

/** Checks an ALIPAY credential; throws an invalid_credential DomainError naming every bad field. Keys come back as PEM. */
export function validateAlipayCredential(input: Readonly<Partial<Record<keyof AlipayCredentialInput, unknown>>>): ValidAlipayCredential {
  const errors = new FieldErrors(ALIPAY_CREDENTIAL_FIELD_LABELS);
  const appId = errors.matches('appId', text(input.appId), ALIPAY_APP_ID, domainMessage('alipayCredential.appIdPattern'));
  const privateKey = errors.privateKey('appPrivateKey', text(input.appPrivateKey));
  const publicKey = errors.publicKey('alipayPublicKey', text(input.alipayPublicKey));
  const sellerIdText = text(input.sellerId);
  const sellerId =
    sellerIdText === '' ? null : (errors.matches('sellerId', sellerIdText, ALIPAY_USER_ID, domainMessage('alipayCredential.sellerIdPattern')) ?? null);
  errors.throwIfAny();
  return { upstreamAppId: appId!, privateKey: privateKey!, upstreamPublicKey: publicKey!, sellerId };
}

export const alipayCredentials: ChannelCredentials = {
  form: alipayCredentialForm,
  fieldLabels: ALIPAY_CREDENTIAL_FIELD_LABELS,
  validate: (input) => validateAlipayCredential(input),
  describe: (stored) => `App ID ${stored.upstreamAppId}${stored.sellerId ? `, seller_id ${stored.sellerId}` : ''}`,
  sandbox: alipaySandboxCredential,
};
