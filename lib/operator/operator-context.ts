import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';

/** Who is acting in the operator console: built from the session on every page and action, re-read from the database. */
export interface OperatorContext {
  accountId: number;
  email: string;
}

/** The audit actor of a console action: the operator's email. */
export function operatorActor(context: Pick<OperatorContext, 'email'>): string {
  return context.email;
}

/**
 * The operator behind a session token, or undefined when the account is gone, is not an operator account, or the
 * token predates a password change (its session version is older than the account's).
 */
export async function loadOperatorContext(db: Database, token: { accountId: number; sessionVersion: number }): Promise<OperatorContext | undefined> {
  if (!Number.isSafeInteger(token.accountId) || token.accountId <= 0) return undefined;
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, role: accounts.role, sessionVersion: accounts.sessionVersion })
    .from(accounts)
    .where(eq(accounts.id, token.accountId))
    .limit(1);
  if (!row || row.role !== 'operator' || row.sessionVersion !== token.sessionVersion) return undefined;
  return { accountId: row.id, email: row.email };
}
