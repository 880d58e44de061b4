import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { verifyPassword } from './passwords';
import { accountAddressRule, accountCapRule, accountRule, addressRule, refundAttempt, takeAttempt } from './sign-in-throttle';

export interface AuthenticatedAccount {
  id: number;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  sessionVersion: number;
}

/**
 * 'throttled': this client must wait (retryAt); 'locked': the account took its daily cap of attempts from all clients
 * and refuses every password until retryAt or an operator's unlock.
 */
export type AuthenticationResult = { ok: true; account: AuthenticatedAccount } | { ok: false; reason: 'invalid' | 'throttled' | 'locked'; retryAt?: Date };

/**
 * Email + password sign-in, throttled per (client, account), per client and per account, and capped per account
 * (see sign-in-throttle.ts); a client is an IPv4 address or an IPv6 /64.
 */
export async function authenticateAccount(
  db: Database,
  input: { email: string; password: string; clientAddress: string; now: Date },
): Promise<AuthenticationResult> {
  const email = input.email.trim().toLowerCase();
  // The account-wide count never refuses by itself: past its threshold it narrows each address to one attempt.
  const account = accountRule(email);
  const underAttack = !(await takeAttempt(db, [account], input.now)).allowed;
  // The cap is checked before the password, so that a locked account tells nobody whether a guess was right.
  const cap = accountCapRule(email);
  const capped = await takeAttempt(db, [cap], input.now);
  if (!capped.allowed) return { ok: false, reason: 'locked', retryAt: capped.retryAt };
  const pair = accountAddressRule(email, input.clientAddress, underAttack);
  const address = addressRule(input.clientAddress);
  const verdict = await takeAttempt(db, [pair, address], input.now);
  if (!verdict.allowed) return { ok: false, reason: 'throttled', retryAt: verdict.retryAt };
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  const valid = await verifyPassword(row?.passwordHash, input.password);
  if (!row || !valid) return { ok: false, reason: 'invalid' };
  await refundAttempt(db, { clear: pair, refund: address });
  await refundAttempt(db, { refund: account });
  await refundAttempt(db, { refund: cap });
  return {
    ok: true,
    account: { id: row.id, email: row.email, role: row.role as AuthenticatedAccount['role'], merchantId: row.merchantId, sessionVersion: row.sessionVersion },
  };
}
