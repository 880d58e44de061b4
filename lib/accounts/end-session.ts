import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';

/**
 * Sign-out ends the session on the server, not only in the browser: sessions are signed tokens (next-auth JWTs)
 * that would stay valid until they expire, so the account's session version moves on and every token issued before
 * (this browser's and the account's other sessions) is refused at its next request. Only a token that is still
 * current can do this: an ended one is refused already and cannot sign anyone else out.
 */
export async function endSessionsOnSignOut(db: Database, token: { accountId: number; sessionVersion: number }): Promise<boolean> {
  const ended = await db
    .update(accounts)
    .set({ sessionVersion: sql`${accounts.sessionVersion} + 1` })
    .where(and(eq(accounts.id, token.accountId), eq(accounts.sessionVersion, token.sessionVersion)))
    .returning({ id: accounts.id });
  return ended.length > 0;
}
