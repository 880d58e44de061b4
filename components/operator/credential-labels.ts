import type { CredentialSummary } from '@/lib/credentials/credentials';
import type { Tone } from './ui';

export const REVIEW_TONES: Record<CredentialSummary['reviewStatus'], Tone> = { pending: 'warn', approved: 'good', rejected: 'bad' };
