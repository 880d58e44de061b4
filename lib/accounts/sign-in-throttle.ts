import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { signInThrottle } from '../db/schema';

/**
 * Password attempts are throttled in PostgreSQL, so that every web process shares the counts. An attempt is counted
 * before the password is checked (concurrent guesses cannot slip past the limit) and refunded when it succeeds.
 * Sign-in limits are shaped so that an attacker cannot turn them against the owner:
 *   per (client address, account): 5 failed attempts per 15 minutes
 *   per client address: 30 failed attempts per 15 minutes, across accounts
 *   per account, from every address: past 20 failed attempts in 15 minutes the account is under attack and each
 *     address gets a single attempt on it per window: guessing needs a new address per guess, while the owner (whose
 *     address has not failed) still signs in with the right password at the first try
 *   password re-entry in the portal (signed in): 5 failed attempts per 15 minutes, per account
 *   sign-ups per client address: 10 per hour (SIGN_UPS_PER_HOUR_PER_ADDRESS)
 */
export interface ThrottleRule {
  key: string;
  limit: number;
  windowMs: number;
}

const FIFTEEN_MINUTES = 15 * 60_000;
export const PAIR_LIMIT = 5;
export const PAIR_LIMIT_UNDER_ATTACK = 1;
export const ACCOUNT_ATTACK_THRESHOLD = 20;

export const accountRule = (email: string): ThrottleRule => ({ key: `account:${email.toLowerCase()}`, limit: ACCOUNT_ATTACK_THRESHOLD, windowMs: FIFTEEN_MINUTES });
export const accountAddressRule = (email: string, address: string, underAttack: boolean): ThrottleRule => ({
  key: `account-ip:${email.toLowerCase()}|${address}`,
  limit: underAttack ? PAIR_LIMIT_UNDER_ATTACK : PAIR_LIMIT,
  windowMs: FIFTEEN_MINUTES,
});
export const addressRule = (address: string): ThrottleRule => ({ key: `ip:${address}`, limit: 30, windowMs: FIFTEEN_MINUTES });
export const reentryRule = (accountId: number): ThrottleRule => ({ key: `reentry:${accountId}`, limit: 5, windowMs: FIFTEEN_MINUTES });
export function signUpAddressRule(address: string, env: NodeJS.ProcessEnv = process.env): ThrottleRule {
  const configured = Number(env.SIGN_UPS_PER_HOUR_PER_ADDRESS ?? 10);
  return { key: `sign-up-ip:${address}`, limit: Number.isInteger(configured) && configured > 0 ? configured : 10, windowMs: 60 * 60_000 };
}

export interface ThrottleVerdict {
  allowed: boolean;
  /** When refused: when the earliest window that refused ends. */
  retryAt?: Date;
}

/**
 * Counts one attempt on every rule (one atomic upsert each; a window that has ended starts again).
 * Refused when any count now exceeds its limit; the refused attempt is counted too.
 */
export async function takeAttempt(db: Database, rules: readonly ThrottleRule[], now: Date): Promise<ThrottleVerdict> {
  let retryAt: Date | undefined;
  for (const rule of rules) {
    const windowStart = new Date(now.getTime() - rule.windowMs);
    const [row] = await db
      .insert(signInThrottle)
      .values({ key: rule.key, failures: 1, windowStartedAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: signInThrottle.key,
        set: {
          failures: sql`CASE WHEN ${signInThrottle.windowStartedAt} <= ${windowStart}::timestamptz THEN 1 ELSE ${signInThrottle.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${signInThrottle.windowStartedAt} <= ${windowStart}::timestamptz THEN ${now}::timestamptz ELSE ${signInThrottle.windowStartedAt} END`,
          updatedAt: now,
        },
      })
      .returning({ failures: signInThrottle.failures, windowStartedAt: signInThrottle.windowStartedAt });
    if (row && row.failures > rule.limit) {
      const end = new Date(row.windowStartedAt.getTime() + rule.windowMs);
      if (!retryAt || end > retryAt) retryAt = end;
    }
  }
  return retryAt ? { allowed: false, retryAt } : { allowed: true };
}

/** A successful attempt: the account starts afresh, the address gets its attempt back. */
export async function refundAttempt(db: Database, rules: { clear?: ThrottleRule; refund?: ThrottleRule }): Promise<void> {
  if (rules.clear) await db.delete(signInThrottle).where(eq(signInThrottle.key, rules.clear.key));
  if (rules.refund) {
    await db
      .update(signInThrottle)
      .set({ failures: sql`GREATEST(${signInThrottle.failures} - 1, 0)` })
      .where(eq(signInThrottle.key, rules.refund.key));
  }
}
