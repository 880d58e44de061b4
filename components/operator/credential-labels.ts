import type { CredentialSummary } from '@/lib/credentials/credentials';
import type { Tone } from './ui';

export const REVIEW_LABELS: Record<CredentialSummary['reviewStatus'], string> = {
  pending: 'Pending review · 待审核',
  approved: 'Approved · 已通过',
  rejected: 'Rejected · 已驳回',
};

export const REVIEW_TONES: Record<CredentialSummary['reviewStatus'], Tone> = { pending: 'warn', approved: 'good', rejected: 'bad' };

/** The non-secret fields of a credential, as one line. */
export function credentialDetails(credential: CredentialSummary): string {
  if (credential.channel === 'ALIPAY') return `App ID ${credential.upstreamAppId}`;
  const verification = credential.wechatVerification === 'platform_certificate' ? 'platform certificate' : `public key ${credential.upstreamPublicKeyId}`;
  return `appid ${credential.upstreamAppId}, mchid ${credential.mchId}, serial ${credential.merchantCertSerial}, ${verification}`;
}
