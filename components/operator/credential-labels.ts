import type { CredentialSummary } from '@/lib/credentials/credentials';
import type { Tone } from './ui';

export const REVIEW_TONES: Record<CredentialSummary['reviewStatus'], Tone> = { pending: 'warn', approved: 'good', rejected: 'bad' };

/** The non-secret fields of a credential, as one line (its channel describes them). */
export function credentialDetails(credential: CredentialSummary): string {
  return credential.details;
}
