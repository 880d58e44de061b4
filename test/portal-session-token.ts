import { encode } from 'next-auth/jwt';
import { openAccountSession } from '../lib/accounts/account-sessions';
import type { Database } from '../lib/db/client';

/**
 * The session token next-auth issues after a good sign-in, for an account a test made: its session row opened as
 * sign-in opens it, and the token carrying that row's id (without one no page honours it).
 */
export async function portalSessionToken(db: Database, account: { id: number; role: 'operator' | 'merchant'; sessionVersion?: number }, secret: string): Promise<string> {
  const sessionVersion = account.sessionVersion ?? 0;
  const sessionId = await openAccountSession(db, { accountId: account.id, sessionVersion, userAgent: 'test', clientAddress: '192.0.2.1', now: new Date() });
  return encode({ token: { accountId: account.id, role: account.role, sessionVersion, sessionId }, secret });
}
