import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountSessions } from '../db/schema';
import { DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { confirmPassword } from './change-password';
import { withReentryAttempt } from './reentry-attempt';
import { answerSecondFactor, hasAnySecondFactor, secondFactorsOf } from './second-factors';

/** How long a good answer to the second factor lets a session's sensitive actions run without asking again. */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

/**
 * What a sensitive action (revealing or rotating the AppSecret, a refund, adding or removing a second factor, adding
 * an upstream credential, inviting a member, the close notices, the team's two-step rule) asks of the person before
 * it runs: for an account with a second factor, the authenticator app's code ('code'), one of its passkeys ('passkey'),
 * either ('code_or_passkey'), or a recovery code, unless this session answered it in the last 10 minutes ('none'); for
 * an account without one, its password where the action asked it before, else nothing ('nothing').
 */
export type StepUpAsk = 'password' | 'code' | 'passkey' | 'code_or_passkey' | 'none' | 'nothing';

/** What an action asks of an account without an authenticator app: the password (as it always did), or nothing. */
export type WithoutApp = 'password' | 'nothing';

/** The ask of an action that asks nothing of an account without an app: never the password. */
export type CodeOnlyStepUpAsk = Exclude<StepUpAsk, 'password'>;

export interface StepUpSession {
  accountId: number;
  /** The session the request came in; without one (a caller outside the pages) the code is always asked. */
  sessionId?: string;
}

async function answeredWithinWindow(db: Database, session: StepUpSession, now: Date): Promise<boolean> {
  if (!session.sessionId) return false;
  const [row] = await db
    .select({ at: accountSessions.secondFactorAt })
    .from(accountSessions)
    .where(and(eq(accountSessions.id, session.sessionId), eq(accountSessions.accountId, session.accountId)))
    .limit(1);
  return row?.at != null && now.getTime() - row.at.getTime() < STEP_UP_WINDOW_MS;
}

export async function stepUpAsk(db: Database, session: StepUpSession, now: Date, withoutApp?: 'password'): Promise<StepUpAsk>;
export async function stepUpAsk(db: Database, session: StepUpSession, now: Date, withoutApp: 'nothing'): Promise<CodeOnlyStepUpAsk>;
export async function stepUpAsk(db: Database, session: StepUpSession, now: Date, withoutApp?: WithoutApp): Promise<StepUpAsk>;
export async function stepUpAsk(db: Database, session: StepUpSession, now: Date, withoutApp: WithoutApp = 'password'): Promise<StepUpAsk> {
  const factors = await secondFactorsOf(db, session.accountId);
  if (!hasAnySecondFactor(factors)) return withoutApp;
  if (await answeredWithinWindow(db, session, now)) return 'none';
  return factors.passkeys === 0 ? 'code' : factors.app ? 'code_or_passkey' : 'passkey';
}

/** Notes that the session's person answered the second factor now (a sign-in's code, or a step-up's). */
export async function noteSecondFactorAnswered(db: Database, session: Required<StepUpSession>, now: Date): Promise<void> {
  await db
    .update(accountSessions)
    .set({ secondFactorAt: now })
    .where(and(eq(accountSessions.id, session.sessionId), eq(accountSessions.accountId, session.accountId)));
}

const stepUpCodeMissing = () =>
  new DomainError('password_rejected', {
    message: "password: the authenticator app's code is required (the last check was over 10 minutes ago)",
    userMessage: domainMessage('accounts.stepUpCodeMissing'),
    fieldErrors: { password: domainMessage('accounts.stepUpCodeMissingField') },
  });

const stepUpPasskeyMissing = () =>
  new DomainError('password_rejected', {
    message: 'password: a passkey or a recovery code is required (the last check was over 10 minutes ago)',
    userMessage: domainMessage('accounts.stepUpPasskeyMissing'),
    fieldErrors: { password: domainMessage('accounts.stepUpPasskeyMissingField') },
  });

const stepUpPasskeyWrong = () =>
  new DomainError('password_rejected', {
    message: 'password: not an answer of one of your passkeys, nor an unused recovery code',
    userMessage: domainMessage('accounts.stepUpPasskeyWrong'),
    fieldErrors: { password: domainMessage('accounts.stepUpPasskeyWrongField') },
  });

const stepUpCodeWrong = () =>
  new DomainError('password_rejected', {
    message: 'password: not the current code of the authenticator app, nor an unused recovery code',
    userMessage: domainMessage('accounts.secondFactorWrong'),
    fieldErrors: { password: domainMessage('accounts.secondFactorWrongField') },
  });

/**
 * Runs before a sensitive action, with what the person entered in the form's confirmation field (`answer`, sent as
 * the field `password`): the password for an account without a second factor; the app's code, a passkey's answer
 * (passkey-answer.ts) or a recovery code for one with it, where a good answer opens a 10-minute window for this session and, inside that window,
 * nothing is checked. Wrong answers count against the account's re-entry throttle, as wrong passwords do; a code is
 * taken once (a replayed one is wrong).
 */
export async function confirmStepUp(db: Database, input: StepUpSession & { answer: string; now: Date; withoutApp?: WithoutApp }): Promise<void> {
  const ask = await stepUpAsk(db, input, input.now, input.withoutApp);
  if (ask === 'none' || ask === 'nothing') return;
  if (ask === 'password') {
    await confirmPassword(db, { accountId: input.accountId, password: input.answer, now: input.now });
    return;
  }
  const answer = input.answer.trim();
  if (answer === '') throw ask === 'passkey' ? stepUpPasskeyMissing() : stepUpCodeMissing();
  await withReentryAttempt(db, input.accountId, input.now, async () => {
    if ((await answerSecondFactor(db, { accountId: input.accountId, answer, purpose: 'step_up', now: input.now })) === 'wrong') throw ask === 'passkey' ? stepUpPasskeyWrong() : stepUpCodeWrong();
  });
  if (input.sessionId) await noteSecondFactorAnswered(db, { accountId: input.accountId, sessionId: input.sessionId }, input.now);
}
