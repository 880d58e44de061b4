import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { throttledClientOf } from './client-address';
import { isKnownNetwork, rememberSignInNetwork } from './known-networks';
import { answerSecondFactor, hasAnySecondFactor, secondFactorsOf } from './second-factors';
import { verifyPassword } from './passwords';
import {
  accountAddressRule,
  accountCapRule,
  accountRule,
  addressRule,
  countAttempt,
  countedAttempts,
  networkDayRule,
  refundAttempt,
  takeAttempt,
  type ThrottleRule,
} from './sign-in-throttle';

export interface AuthenticatedAccount {
  id: number;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  sessionVersion: number;
  /** The sign-in answered the account's second factor: the session's sensitive actions need none for 10 minutes. */
  secondFactorAnswered: boolean;
}

/**
 * 'throttled': this client must wait (retryAt); 'locked': the account refuses every password from this network until
 * retryAt or an operator's unlock, because this network reached its daily cap on the account, or the account reached
 * its daily cap from every network and this one never signed in to it; only the password with the account's second
 * factor still gets in. 'second_factor_required': the password was right and the account has an authenticator app,
 * whose code (or a recovery code) must come with it; 'second_factor_invalid': that code was wrong or used already;
 * 'passkey_invalid': a passkey sign-in's answer was not one of the service's passkeys' (passkey-sign-in.ts).
 */
export type AuthenticationResult =
  | { ok: true; account: AuthenticatedAccount }
  | { ok: false; reason: 'invalid' | 'throttled' | 'locked' | 'second_factor_required' | 'second_factor_invalid' | 'passkey_invalid'; retryAt?: Date };

type AccountRow = typeof accounts.$inferSelect;

/** The signed-in account a session is opened for, from its row (a password sign-in's or a passkey's). */
export function authenticatedAccountOf(row: AccountRow, secondFactorAnswered: boolean): AuthenticatedAccount {
  return { id: row.id, email: row.email, role: row.role as AuthenticatedAccount['role'], merchantId: row.merchantId, sessionVersion: row.sessionVersion, secondFactorAnswered };
}

/** The daily lock this network meets on the account, if any; read before anything is counted or checked. */
async function dailyLock(db: Database, row: AccountRow | undefined, email: string, clientAddress: string, now: Date): Promise<Date | undefined> {
  const network = networkDayRule(email, clientAddress);
  const fromNetwork = await countedAttempts(db, network, now);
  if (fromNetwork.failures >= network.limit) return fromNetwork.windowEndsAt;
  const cap = accountCapRule(email);
  const fromEverywhere = await countedAttempts(db, cap, now);
  if (fromEverywhere.failures < cap.limit) return undefined;
  const known = row ? await isKnownNetwork(db, row.id, clientAddress) : false;
  return known ? undefined : fromEverywhere.windowEndsAt;
}

/** The failed check that brings a daily count to its cap starts a lock-out: audited, so that it is seen and dated. */
async function auditLockStarted(db: Database, row: AccountRow | undefined, clientAddress: string, reached: { network: boolean; account: boolean }) {
  if (!row || (!reached.network && !reached.account)) return;
  await recordAudit(db, {
    actor: `network:${throttledClientOf(clientAddress)}`,
    action: 'account.sign_in_locked',
    subject: `account:${row.id}`,
    after: { scope: reached.network ? 'network' : 'new_networks', network: throttledClientOf(clientAddress) },
  });
}

/**
 * Email + password sign-in, throttled per (client, account) and per client, and capped per (account, network) and
 * per account (see sign-in-throttle.ts); a client is an IPv4 address or an IPv6 /64. The account's own counts take
 * only the attempts that pass the client's limits and reach the password check.
 */
export async function authenticateAccount(
  db: Database,
  input: { email: string; password: string; secondFactor?: string; clientAddress: string; now: Date },
): Promise<AuthenticationResult> {
  const email = input.email.trim().toLowerCase();
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  const withFactor = row ? hasAnySecondFactor(await secondFactorsOf(db, row.id)) : false;
  // A lock is decided before anything is checked, so that a locked account tells nobody whether a guess was right:
  // the password and the second factor together are checked, and answered as the lock unless both are right.
  const lockedUntil = await dailyLock(db, row, email, input.clientAddress, input.now);
  const locked = lockedUntil ? ({ ok: false, reason: 'locked', retryAt: lockedUntil } as const) : undefined;
  if (locked && !(withFactor && input.secondFactor)) return locked;
  const account = accountRule(email);
  const underAttack = (await countedAttempts(db, account, input.now)).failures >= account.limit;
  const pair = accountAddressRule(email, input.clientAddress, underAttack);
  const address = addressRule(input.clientAddress);
  const verdict = await takeAttempt(db, [pair, address], input.now);
  if (!verdict.allowed) return { ok: false, reason: 'throttled', retryAt: verdict.retryAt };
  const network = networkDayRule(email, input.clientAddress);
  const cap = accountCapRule(email);
  const checked: ThrottleRule[] = [account, network, cap];
  await countAttempt(db, account, input.now);
  const fromNetwork = await countAttempt(db, network, input.now);
  const fromEverywhere = await countAttempt(db, cap, input.now);
  const valid = await verifyPassword(row?.passwordHash, input.password);
  // Exactly one failed check brings a count to its cap, however many run at once.
  const failed = async (reason: 'invalid' | 'second_factor_invalid') => {
    await auditLockStarted(db, row, input.clientAddress, { network: fromNetwork.failures === network.limit, account: fromEverywhere.failures === cap.limit });
    return locked ?? ({ ok: false, reason } as const);
  };
  if (!row || !valid) return failed('invalid');
  if (withFactor) {
    if (!input.secondFactor) {
      // Not a guess: the counts get this attempt back; the client's pair count is not cleared, so that asking for the
      // code step again and again never resets the count of wrong codes.
      for (const rule of [pair, address, ...checked]) await refundAttempt(db, { refund: rule });
      return { ok: false, reason: 'second_factor_required' };
    }
    if ((await answerSecondFactor(db, { accountId: row.id, answer: input.secondFactor, purpose: 'second_factor', now: input.now })) === 'wrong') return failed('second_factor_invalid');
  }
  await refundAttempt(db, { clear: pair, refund: address });
  for (const rule of checked) await refundAttempt(db, { refund: rule });
  await rememberSignInNetwork(db, row.id, input.clientAddress, input.now);
  return {
    ok: true,
    account: authenticatedAccountOf(row, withFactor),
  };
}
