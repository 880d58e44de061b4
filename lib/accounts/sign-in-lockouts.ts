import { and, desc, eq, gt, gte, inArray, like, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, merchants, signInThrottle } from '../db/schema';
import { ACCOUNT_DAILY_CAP, NETWORK_DAILY_CAP, NETWORK_DAY_PREFIX, accountCapRule } from './sign-in-throttle';

const ONE_DAY = 24 * 60 * 60_000;
const CAP_PREFIX = accountCapRule('').key;
/** Networks shown per account: an attack from thousands of networks is summed up by its worst ones and a total. */
export const NETWORKS_SHOWN = 10;

export interface NetworkFailures {
  network: string;
  failures: number;
  /** Set when this network reached its daily cap on the account: refused until then. */
  lockedUntil: Date | null;
}

export interface SignInFailures {
  /** Failed password checks in the last 24 hours, from every network. */
  total: number;
  /** Set when the account reached its daily cap: networks it never signed in from are refused until then. */
  newNetworksLockedUntil: Date | null;
  networks: NetworkFailures[];
}

export interface SignInLockout extends SignInFailures {
  accountId: number;
  email: string;
  role: string;
  merchantAppId: string | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);
const windowEnd = (startedAt: Date) => new Date(startedAt.getTime() + ONE_DAY);

/** What guessers did to an account's sign-ins in the last 24 hours, worst networks first: for its owner and the console. */
export async function signInFailuresOf(db: Database, email: string, now: Date): Promise<SignInFailures> {
  const normalised = email.trim().toLowerCase();
  const since = new Date(now.getTime() - ONE_DAY);
  const [cap] = await db
    .select()
    .from(signInThrottle)
    .where(and(eq(signInThrottle.key, accountCapRule(normalised).key), gt(signInThrottle.windowStartedAt, since)))
    .limit(1);
  const networkRows = await db
    .select()
    .from(signInThrottle)
    .where(and(like(signInThrottle.key, `${escapeLike(`${NETWORK_DAY_PREFIX}${normalised}|`)}%`), gt(signInThrottle.windowStartedAt, since), gt(signInThrottle.failures, 0)))
    .orderBy(desc(signInThrottle.failures), signInThrottle.key)
    .limit(NETWORKS_SHOWN);
  return {
    total: cap?.failures ?? 0,
    newNetworksLockedUntil: cap && cap.failures >= ACCOUNT_DAILY_CAP ? windowEnd(cap.windowStartedAt) : null,
    networks: networkRows.map((row) => ({
      network: row.key.slice(row.key.lastIndexOf('|') + 1),
      failures: row.failures,
      lockedUntil: row.failures >= NETWORK_DAILY_CAP ? windowEnd(row.windowStartedAt) : null,
    })),
  };
}

/** The email a daily count belongs to: keys are `<prefix><email>` or `<prefix><email>|<network>` (a network has no `|`). */
function emailOfKey(key: string): string {
  return key.startsWith(CAP_PREFIX) ? key.slice(CAP_PREFIX.length) : key.slice(NETWORK_DAY_PREFIX.length, key.lastIndexOf('|'));
}

/** The accounts whose sign-ins are locked now, for some network or for new ones, most failures first. */
export async function listSignInLockouts(db: Database, now: Date, limit: number): Promise<SignInLockout[]> {
  const since = new Date(now.getTime() - ONE_DAY);
  const lockRows = await db
    .select({ key: signInThrottle.key })
    .from(signInThrottle)
    .where(
      and(
        gt(signInThrottle.windowStartedAt, since),
        or(
          and(like(signInThrottle.key, `${escapeLike(CAP_PREFIX)}%`), gte(signInThrottle.failures, ACCOUNT_DAILY_CAP)),
          and(like(signInThrottle.key, `${escapeLike(NETWORK_DAY_PREFIX)}%`), gte(signInThrottle.failures, NETWORK_DAILY_CAP)),
        ),
      ),
    );
  const emails = [...new Set(lockRows.map((row) => emailOfKey(row.key)))];
  if (emails.length === 0) return [];
  const locked = await db
    .select({ accountId: accounts.id, email: accounts.email, role: accounts.role, merchantAppId: merchants.appId })
    .from(accounts)
    .leftJoin(merchants, eq(merchants.id, accounts.merchantId))
    .where(inArray(accounts.email, emails))
    .orderBy(accounts.id);
  const lockouts = await Promise.all(locked.map(async (account) => ({ ...account, ...(await signInFailuresOf(db, account.email, now)) })));
  return lockouts.sort((a, b) => b.total - a.total || a.accountId - b.accountId).slice(0, limit);
}
