import type { CredentialForm } from '../../credentials/credential-form';

/** The portal's ALIPAY credential form (messages: portal.credentials.alipay); names as AlipayCredentialInput. */
export const alipayCredentialForm: CredentialForm = {
  parts: [
    { kind: 'text', name: 'appId', label: 'appId', hint: 'appIdHint', required: true },
    { kind: 'textarea', name: 'appPrivateKey', label: 'privateKey', hint: 'privateKeyHint', required: true },
    { kind: 'textarea', name: 'alipayPublicKey', label: 'publicKey', required: true },
    { kind: 'text', name: 'sellerId', label: 'sellerId', hint: 'sellerIdHint', numeric: true },
  ],
};
