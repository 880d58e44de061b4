import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountHasPasskey, accountTotpFactors, accounts } from '../db/schema';
import { touchLiveSession, type SessionToken } from '../accounts/account-sessions';

/** Who is acting in the operator console: built from the session on every page and action, re-read from the database. */
export interface OperatorContext {
  accountId: number;
  email: string;
  /** The session the request came in (its account page marks it, and keeps it when ending the others). */
  sessionId: string;
  /**
   * In production an operator without a confirmed authenticator app reaches only their account page, to set one up:
   * the console holds every merchant's credentials, and a password alone must not open it.
   */
  mustSetUpSecondFactor: boolean;
  /** When an operator reset this account's lost authenticator app, until a new one is set up (every page says so). */
  secondFactorResetAt: Date | null;
}

/**
 * A production service asks two-step sign-in of every operator; a development server or a test run does not (its demo
 * operator signs in with the password the first run prints).
 */
export function operatorsNeedSecondFactor(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'production';
}

/** The audit actor of a console action: the operator's email. */
export function operatorActor(context: Pick<OperatorContext, 'email'>): string {
  return context.email;
}

/**
 * The operator behind a session token, or undefined when its session is not live (ended, unused past the idle limit,
 * from before a password change) or its account is gone or is not an operator account.
 */
export async function loadOperatorContext(db: Database, token: SessionToken, now = new Date()): Promise<OperatorContext | undefined> {
  if (!Number.isSafeInteger(token.accountId) || token.accountId <= 0) return undefined;
  if (!(await touchLiveSession(db, token, now))) return undefined;
  const [row] = await db
    .select({
      id: accounts.id,
      email: accounts.email,
      role: accounts.role,
      secondFactorResetAt: accounts.secondFactorResetAt,
      factorConfirmedAt: accountTotpFactors.confirmedAt,
      hasPasskey: accountHasPasskey,
    })
    .from(accounts)
    .leftJoin(accountTotpFactors, eq(accountTotpFactors.accountId, accounts.id))
    .where(eq(accounts.id, token.accountId))
    .limit(1);
  if (!row || row.role !== 'operator') return undefined;
  return {
    accountId: row.id,
    email: row.email,
    sessionId: token.sessionId,
    mustSetUpSecondFactor: operatorsNeedSecondFactor() && row.factorConfirmedAt == null && !row.hasPasskey,
    secondFactorResetAt: row.secondFactorResetAt,
  };
}
