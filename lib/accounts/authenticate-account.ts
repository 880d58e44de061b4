import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { verifyPassword } from './passwords';
import { accountRule, addressRule, refundAttempt, takeAttempt } from './sign-in-throttle';

export interface AuthenticatedAccount {
  id: number;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  sessionVersion: number;
}

export type AuthenticationResult = { ok: true; account: AuthenticatedAccount } | { ok: false; reason: 'invalid' | 'throttled'; retryAt?: Date };

/** Email + password sign-in, throttled per account and per client address (see sign-in-throttle.ts). */
export async function authenticateAccount(
  db: Database,
  input: { email: string; password: string; clientAddress: string; now: Date },
): Promise<AuthenticationResult> {
  const email = input.email.trim().toLowerCase();
  const account = accountRule(email);
  const address = addressRule(input.clientAddress);
  const verdict = await takeAttempt(db, [account, address], input.now);
  if (!verdict.allowed) return { ok: false, reason: 'throttled', retryAt: verdict.retryAt };
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  const valid = await verifyPassword(row?.passwordHash, input.password);
  if (!row || !valid) return { ok: false, reason: 'invalid' };
  await refundAttempt(db, { clear: account, refund: address });
  return {
    ok: true,
    account: { id: row.id, email: row.email, role: row.role as AuthenticatedAccount['role'], merchantId: row.merchantId, sessionVersion: row.sessionVersion },
  };
}
