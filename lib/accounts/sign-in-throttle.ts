import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { signInThrottle } from '../db/schema';
import { throttledClientOf } from './client-address';

/**
 * Password attempts are throttled in PostgreSQL, so that every web process shares the counts. An attempt is counted
 * before the password is checked (concurrent guesses cannot slip past the limit) and refunded when it succeeds.
 * A client counts as its address, an IPv6 client as its /64 (throttledClientOf: one subscriber's network, where it
 * picks any address at will). Sign-in limits are shaped so that an attacker cannot turn them against the owner: the
 * per-client limits count every post, the account's own counts only the attempts that reach a password check (a
 * flood of posts that the client's limits refuse costs the account nothing):
 *   per (client, account): 5 failed attempts per 15 minutes
 *   per client: 30 failed attempts per 15 minutes, across accounts
 *   per account, from every client: past 20 failed checks in 15 minutes the account is under attack and each
 *     client gets a single attempt on it per window: guessing needs a new client per guess, while the owner (whose
 *     client has not failed) still signs in with the right password at the first try
 *   per (account, client), in 24 hours: 20 failed checks (NETWORK_DAILY_CAP) lock the account for that network
 *     alone, the right password included
 *   per account, from every client, in 24 hours: 100 failed checks (ACCOUNT_DAILY_CAP), the cap on guesses however
 *     many networks the attacker has: past it the account is locked for every network it was never signed in from,
 *     while a network with an earlier good sign-in (known-networks.ts) still gets in with the right password
 *   both locks last until their 24 hours end or an operator unlocks (`npm run admin -- account unlock --email …`,
 *   or the console's attention list: unlock-sign-in.ts)
 *   password re-entry in the portal (signed in): 5 failed attempts per 15 minutes, per account
 *   a passkey sign-in counts a failed assertion on the client's own limit (30 per 15 minutes); the challenges it asks
 *     for before anyone is signed in, 60 per client per 15 minutes
 *   sign-ups per client: 10 per hour (SIGN_UPS_PER_HOUR_PER_ADDRESS)
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
/**
 * 100 guesses a day against one account: about 36,500 a year, nothing against a password of 10 characters or more
 * (passwords.ts), while an owner mistyping would need 100 failures in a day to lock themselves out.
 */
export const ACCOUNT_DAILY_CAP = 100;
/**
 * Past it a network is refused on the account for the rest of its day: a slow guesser on one network meets it. It is
 * a fifth of the account's cap, so that no single network can bring the account to that cap.
 */
export const NETWORK_DAILY_CAP = 20;
const ONE_DAY = 24 * 60 * 60_000;
/** The keys of an account's daily counts per network: the prefix, then `<email>|<network>`. */
export const NETWORK_DAY_PREFIX = 'account-network-day:';

export const accountRule = (email: string): ThrottleRule => ({ key: `account:${email.toLowerCase()}`, limit: ACCOUNT_ATTACK_THRESHOLD, windowMs: FIFTEEN_MINUTES });
export const accountCapRule = (email: string): ThrottleRule => ({ key: `account-cap:${email.toLowerCase()}`, limit: ACCOUNT_DAILY_CAP, windowMs: ONE_DAY });
export const networkDayRule = (email: string, address: string): ThrottleRule => ({
  key: `${NETWORK_DAY_PREFIX}${email.toLowerCase()}|${throttledClientOf(address)}`,
  limit: NETWORK_DAILY_CAP,
  windowMs: ONE_DAY,
});
export const accountAddressRule = (email: string, address: string, underAttack: boolean): ThrottleRule => ({
  key: `account-ip:${email.toLowerCase()}|${throttledClientOf(address)}`,
  limit: underAttack ? PAIR_LIMIT_UNDER_ATTACK : PAIR_LIMIT,
  windowMs: FIFTEEN_MINUTES,
});
export const addressRule = (address: string): ThrottleRule => ({ key: `ip:${throttledClientOf(address)}`, limit: 30, windowMs: FIFTEEN_MINUTES });
export const reentryRule = (accountId: number): ThrottleRule => ({ key: `reentry:${accountId}`, limit: 5, windowMs: FIFTEEN_MINUTES });
/** Passkey challenges asked before anyone is signed in: each one a row until it expires, so a client gets 60 in 15 minutes. */
export const passkeyChallengeRule = (address: string): ThrottleRule => ({ key: `passkey-challenge:${throttledClientOf(address)}`, limit: 60, windowMs: FIFTEEN_MINUTES });
export function signUpAddressRule(address: string, env: NodeJS.ProcessEnv = process.env): ThrottleRule {
  const configured = Number(env.SIGN_UPS_PER_HOUR_PER_ADDRESS ?? 10);
  return { key: `sign-up-ip:${throttledClientOf(address)}`, limit: Number.isInteger(configured) && configured > 0 ? configured : 10, windowMs: 60 * 60_000 };
}

/** Every throttle key of an account's sign-ins (its counts, its cap, and its counts per client), for an unlock. */
export function accountThrottleKeys(email: string): { keys: string[]; prefixes: string[] } {
  const normalised = email.toLowerCase();
  return { keys: [accountRule(normalised).key, accountCapRule(normalised).key], prefixes: [`account-ip:${normalised}|`, `${NETWORK_DAY_PREFIX}${normalised}|`] };
}

export interface ThrottleVerdict {
  allowed: boolean;
  /** When refused: when the earliest window that refused ends. */
  retryAt?: Date;
}

/** Counts one attempt on a rule (one atomic upsert; a window that has ended starts again): the count and its window now. */
export async function countAttempt(db: Database, rule: ThrottleRule, now: Date): Promise<{ failures: number; windowEndsAt: Date }> {
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
  return { failures: row!.failures, windowEndsAt: new Date(row!.windowStartedAt.getTime() + rule.windowMs) };
}

/** Counts one attempt on every rule; refused when any count now exceeds its limit (the refused attempt is counted too). */
export async function takeAttempt(db: Database, rules: readonly ThrottleRule[], now: Date): Promise<ThrottleVerdict> {
  let retryAt: Date | undefined;
  for (const rule of rules) {
    const counted = await countAttempt(db, rule, now);
    if (counted.failures > rule.limit && (!retryAt || counted.windowEndsAt > retryAt)) retryAt = counted.windowEndsAt;
  }
  return retryAt ? { allowed: false, retryAt } : { allowed: true };
}

/** How many attempts a rule has counted in its current window (0 once the window ended), counting none. */
export async function countedAttempts(db: Database, rule: ThrottleRule, now: Date): Promise<{ failures: number; windowEndsAt?: Date }> {
  const [row] = await db.select().from(signInThrottle).where(eq(signInThrottle.key, rule.key)).limit(1);
  if (!row || row.windowStartedAt.getTime() <= now.getTime() - rule.windowMs) return { failures: 0 };
  return { failures: row.failures, windowEndsAt: new Date(row.windowStartedAt.getTime() + rule.windowMs) };
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
