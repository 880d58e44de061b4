import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { decodePasskeyAnswer } from './passkey-answer';
import { verifyPasskeyAnswer } from './passkey-assertion';
import { checkSecondFactor } from './totp-factor';

/** An account's second factors: its authenticator app (confirmed) and how many passkeys it holds. */
export interface SecondFactors {
  app: boolean;
  passkeys: number;
}

export async function secondFactorsOf(db: Database, accountId: number): Promise<SecondFactors> {
  const { rows } = await db.execute<{ app: boolean; passkeys: number }>(sql`
    SELECT EXISTS (SELECT 1 FROM account_totp_factors WHERE account_id = ${accountId} AND confirmed_at IS NOT NULL) AS app,
           (SELECT count(*)::int FROM account_passkeys WHERE account_id = ${accountId}) AS passkeys`);
  return { app: rows[0]!.app, passkeys: rows[0]!.passkeys };
}

export const hasAnySecondFactor = (factors: SecondFactors) => factors.app || factors.passkeys > 0;

/**
 * Checks an answer to the account's second factor (a sign-in's second step, or a sensitive action's check): a
 * passkey's answer (passkey-answer.ts) against the account's own passkeys, else the authenticator app's present
 * code or an unused recovery code (totp-factor.ts). 'wrong' for anything else, a used code or answer included.
 */
export async function answerSecondFactor(
  db: Database,
  input: { accountId: number; answer: string; purpose: 'second_factor' | 'step_up'; now: Date },
): Promise<'totp' | 'recovery_code' | 'passkey' | 'wrong'> {
  const passkey = decodePasskeyAnswer(input.answer.trim());
  if (passkey) return (await verifyPasskeyAnswer(db, { answer: passkey, purpose: input.purpose, accountId: input.accountId, now: input.now })) ? 'passkey' : 'wrong';
  return checkSecondFactor(db, { accountId: input.accountId, code: input.answer, now: input.now });
}
