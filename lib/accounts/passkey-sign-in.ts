import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { authenticatedAccountOf, type AuthenticationResult } from './authenticate-account';
import { rememberSignInNetwork } from './known-networks';
import { decodePasskeyAnswer } from './passkey-answer';
import { verifyPasskeyAnswer } from './passkey-assertion';
import { addressRule, refundAttempt, takeAttempt } from './sign-in-throttle';

/**
 * A sign-in with a passkey alone (no email, no password): the authenticator proves it holds the account's key and
 * that it verified its person (PIN or biometrics), two factors in one gesture, so the session's sensitive actions
 * need no other check for 10 minutes. It goes through an account's daily lock-outs, which stop password guessing:
 * a passkey cannot be guessed. A failed answer counts on the client's own limit, as a wrong password does.
 */
export async function authenticateWithPasskey(db: Database, input: { answer: string; clientAddress: string; now: Date }): Promise<AuthenticationResult> {
  const address = addressRule(input.clientAddress);
  const verdict = await takeAttempt(db, [address], input.now);
  if (!verdict.allowed) return { ok: false, reason: 'throttled', retryAt: verdict.retryAt };
  const answer = decodePasskeyAnswer(input.answer);
  const verified = answer ? await verifyPasskeyAnswer(db, { answer, purpose: 'sign_in', now: input.now }) : undefined;
  if (!verified) return { ok: false, reason: 'passkey_invalid' };
  const [row] = await db.select().from(accounts).where(eq(accounts.id, verified.accountId)).limit(1);
  if (!row) return { ok: false, reason: 'passkey_invalid' };
  await refundAttempt(db, { refund: address });
  await rememberSignInNetwork(db, row.id, input.clientAddress, input.now);
  return { ok: true, account: authenticatedAccountOf(row, true) };
}
