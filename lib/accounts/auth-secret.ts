import { publicBaseUrl } from '../orders/identifiers';

/**
 * The key that signs and encrypts portal sessions (next-auth JWTs): NEXTAUTH_SECRET (or AUTH_SECRET). Entry points
 * make sure it is set before anything runs (lib/config/process-secrets: configured, or the embedded data directory's
 * own random secret); there is no default, in any mode.
 */
/** Session cookies are Secure (and __Secure-/__Host- prefixed) whenever the service is public over https. */
export function sessionCookiesSecure(): boolean {
  return publicBaseUrl().startsWith('https://');
}

export function portalAuthSecret(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.NEXTAUTH_SECRET ?? env.AUTH_SECRET;
  if (!configured) throw new Error('NEXTAUTH_SECRET is not set (e.g. `openssl rand -base64 32`)');
  if (configured.length < 32) throw new Error('NEXTAUTH_SECRET must be at least 32 characters');
  return configured;
}
