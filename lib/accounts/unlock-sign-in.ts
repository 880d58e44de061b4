import { eq, inArray, like, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, signInThrottle } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { notFound } from '../errors/domain-error';
import { accountThrottleKeys } from './sign-in-throttle';

/**
 * An operator lets an account's owner in again after its sign-ins were capped (sign-in-throttle.ts): the account's
 * counts, its daily caps (from every network, and per network) and its counts per client are cleared, audited in the
 * same transaction. The owner signs in with the password at once; an attacker starts from nothing too, so unlock
 * after the attack stopped, or after the owner changed the password.
 */
export async function unlockSignIn(db: Database, email: string, audit: { actor: string; reason?: string }): Promise<{ accountId: number; email: string; cleared: number }> {
  const normalised = email.trim().toLowerCase();
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [account] = await tx.select({ id: accounts.id, email: accounts.email }).from(accounts).where(eq(accounts.email, normalised)).limit(1);
    if (!account) throw notFound(`account ${normalised}`);
    const { keys, prefixes } = accountThrottleKeys(normalised);
    // LIKE's wildcards in an email (`_`) are escaped: only this account's per-client keys start with the prefixes.
    const startsWith = prefixes.map((prefix) => like(signInThrottle.key, `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`));
    const cleared = await tx
      .delete(signInThrottle)
      .where(or(inArray(signInThrottle.key, keys), ...startsWith))
      .returning({ key: signInThrottle.key });
    await recordAudit(tx, { actor: audit.actor, action: 'account.unlock', subject: `account:${account.id}`, reason: audit.reason, after: { clearedCounts: cleared.length } });
    return { accountId: account.id, email: account.email, cleared: cleared.length };
  });
}
