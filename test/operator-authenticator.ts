import { confirmTotpEnrolment, startTotpEnrolment } from '../lib/accounts/totp-factor';
import type { Database } from '../lib/db/client';
import { authenticatorCode, type AuthenticatorApp } from './totp-code';

/**
 * Sets up an authenticator app for an account a test made, as its account page does (the secret, then the app's
 * code): a production service opens nothing to an operator without one.
 */
export async function withAuthenticatorApp(db: Database, accountId: number): Promise<AuthenticatorApp> {
  const now = new Date();
  const { secret } = await startTotpEnrolment(db, { accountId, now });
  await confirmTotpEnrolment(db, { accountId, code: authenticatorCode(secret, now), now });
  return { secret, lastStep: Math.floor(now.getTime() / 30_000) };
}
