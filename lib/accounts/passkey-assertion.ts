import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON, type AuthenticatorTransportFuture, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountPasskeys, type WebauthnPurpose } from '../db/schema';
import type { PasskeyAnswer } from './passkey-answer';
import { relyingParty } from './passkey-relying-party';
import { keepChallenge, takeChallenge } from './webauthn-challenges';

/** The ceremonies a passkey answers: a sign-in of its own, a password's second step, a sensitive action's check. */
export type AssertionPurpose = Extract<WebauthnPurpose, 'sign_in' | 'second_factor' | 'step_up'>;

const CEREMONY_TIMEOUT_MS = 120_000;

export const transportsOf = (stored: string) => (stored === '' ? [] : (stored.split(',') as AuthenticatorTransportFuture[]));

/**
 * What the browser passes to navigator.credentials.get, and the challenge's id to post back. A sign-in, and the
 * second step (whose account the browser has not proven yet), ask for any passkey of this service (a discoverable
 * credential): naming an email's passkeys to whoever asks would tell them the email has some. A step-up names the
 * signed-in account's own. Every ceremony asks the authenticator to verify its person (PIN, fingerprint, face).
 */
export async function passkeyAssertionOptions(
  db: Database,
  input: { purpose: AssertionPurpose; accountId?: number; now: Date },
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const forAccount = input.purpose === 'step_up' ? input.accountId : undefined;
  if (input.purpose === 'step_up' && forAccount === undefined) throw new Error('a step-up challenge is for a signed-in account');
  const allowCredentials =
    forAccount === undefined
      ? undefined
      : (await db.select({ id: accountPasskeys.credentialId, transports: accountPasskeys.transports }).from(accountPasskeys).where(eq(accountPasskeys.accountId, forAccount))).map(
          (passkey) => ({ id: passkey.id, transports: transportsOf(passkey.transports) }),
        );
  const options = await generateAuthenticationOptions({ rpID: relyingParty().id, allowCredentials, userVerification: 'required', timeout: CEREMONY_TIMEOUT_MS });
  const challengeId = await keepChallenge(db, { accountId: forAccount ?? null, purpose: input.purpose, challenge: options.challenge, now: input.now });
  return { challengeId, options };
}

/**
 * Checks a passkey's answer to a challenge of `purpose` (taken, so never twice): the credential must be one of the
 * service's (and `accountId`'s when given), signed for this service's origin and host, by its public key, with the
 * person verified and a signature counter that moved on (where the authenticator keeps one). The passkey's account
 * when it holds, undefined for anything else.
 */
export async function verifyPasskeyAnswer(
  db: Database,
  input: { answer: PasskeyAnswer; purpose: AssertionPurpose; accountId?: number; now: Date },
): Promise<{ accountId: number; passkeyId: number } | undefined> {
  const challenge = await takeChallenge(db, { id: input.answer.challengeId, purpose: input.purpose, accountId: input.purpose === 'step_up' ? (input.accountId ?? -1) : null, now: input.now });
  if (challenge === undefined) return undefined;
  const response = input.answer.response as AuthenticationResponseJSON;
  if (typeof response.id !== 'string') return undefined;
  const [passkey] = await db.select().from(accountPasskeys).where(eq(accountPasskeys.credentialId, response.id)).limit(1);
  if (!passkey || (input.accountId !== undefined && passkey.accountId !== input.accountId)) return undefined;
  const party = relyingParty();
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.signCount, transports: transportsOf(passkey.transports) },
      requireUserVerification: true,
    });
  } catch {
    // A malformed answer, another origin, a bad signature, a counter that went back (a cloned authenticator).
    return undefined;
  }
  if (!verified.verified) return undefined;
  await db
    .update(accountPasskeys)
    .set({ signCount: verified.authenticationInfo.newCounter, backedUp: verified.authenticationInfo.credentialBackedUp, lastUsedAt: input.now })
    .where(eq(accountPasskeys.id, passkey.id));
  return { accountId: passkey.accountId, passkeyId: passkey.id };
}
