import type { CredentialForm } from '../../credentials/credential-form';

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

/**
 * The portal's WECHAT credential form (messages: portal.credentials.wechat); names as WechatCredentialInput. WeChat
 * Pay is verified with its public key (the default for new merchants) or with the platform certificate: one is asked for.
 */
export const wechatCredentialForm: CredentialForm = {
  parts: [
    { kind: 'text', name: 'appId', label: 'appId', hint: 'appIdHint', required: true },
    { kind: 'text', name: 'mchId', label: 'mchId', numeric: true, required: true },
    { kind: 'text', name: 'merchantCertSerial', label: 'serial', required: true },
    { kind: 'textarea', name: 'merchantPrivateKey', label: 'privateKey', hint: 'privateKeyHint', required: true },
    { kind: 'password', name: 'apiV3Key', label: 'apiV3Key', hint: 'apiV3KeyHint', required: true },
    {
      kind: 'choice',
      name: 'verification',
      legend: 'verifyWith',
      alternatives: [
        {
          value: 'publicKey',
          label: 'publicKey',
          fields: [
            { kind: 'textarea', name: 'wechatPayPublicKey', label: 'publicKey', required: true },
            { kind: 'text', name: 'wechatPayPublicKeyId', label: 'publicKeyId', hint: 'publicKeyIdHint', required: true },
          ],
        },
        { value: 'certificate', label: 'certificate', fields: [{ kind: 'textarea', name: 'platformCertificate', label: 'certificate', required: true }] },
      ],
    },
  ],
};
