import { createHash } from 'node:crypto';

/**
 * The key that signs and encrypts portal sessions (next-auth JWTs). Development and tests use a fixed local value
 * so a newcomer needs no setup; production refuses to run without NEXTAUTH_SECRET (or AUTH_SECRET).
 */
export function portalAuthSecret(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.NEXTAUTH_SECRET ?? env.AUTH_SECRET;
  if (configured) {
    if (env.NODE_ENV === 'production' && configured.length < 32) throw new Error('NEXTAUTH_SECRET must be at least 32 characters in production');
    return configured;
  }
  if (env.NODE_ENV === 'production') throw new Error('NEXTAUTH_SECRET is required in production (e.g. `openssl rand -base64 32`)');
  return createHash('sha256').update('payment-order-service development session key').digest('base64url');
}
