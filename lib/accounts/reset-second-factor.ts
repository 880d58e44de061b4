import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountPasskeys, accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { actionRefused, invalidParameter, notFound } from '../errors/domain-error';
import { dropTotpFactor } from './totp-factor';

/**
 * An operator's answer to an owner who lost the authenticator app (or passkeys) and the recovery codes: every second
 * factor and the codes are removed and every session of the account ends (the session version moves on), audited with the operator and
 * the reason, which is required (how the owner was recognised). The owner then signs in with the password alone and
 * is told on the account page until a new app is set up.
 */
export async function resetSecondFactor(db: Database, input: { email: string; actor: string; reason: string; now: Date }): Promise<{ accountId: number; email: string }> {
  const reason = input.reason.trim();
  if (reason === '') throw invalidParameter('reason: required (how the owner was recognised)');
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [account] = await tx.select({ id: accounts.id, email: accounts.email }).from(accounts).where(eq(accounts.email, email)).limit(1);
    if (!account) throw notFound(`account ${email}`);
    // The passkeys go first, so that the app's removal takes the recovery codes with it.
    const passkeys = await tx.delete(accountPasskeys).where(eq(accountPasskeys.accountId, account.id)).returning({ id: accountPasskeys.id });
    const dropped = await dropTotpFactor(tx, account.id, { secondFactorResetAt: input.now, secondFactorResetReason: reason });
    if (!dropped.wasConfirmed && passkeys.length === 0) throw actionRefused(`account ${account.email} has no second factor (authenticator app or passkey) set up: nothing to reset`);
    const kinds = [...(dropped.wasConfirmed ? ['totp'] : []), ...(passkeys.length > 0 ? ['passkey'] : [])];
    await recordAudit(tx, { actor: input.actor, action: 'account.second_factor_reset', subject: `account:${account.id}`, reason, after: { kinds, passkeys: passkeys.length } });
    return { accountId: account.id, email: account.email };
  });
}

/** The operator's reset the owner has not answered yet (no app set up since): when, and why. */
export async function pendingSecondFactorReset(db: Database, accountId: number): Promise<{ at: Date; reason: string } | undefined> {
  const [row] = await db.select({ at: accounts.secondFactorResetAt, reason: accounts.secondFactorResetReason }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.at ? { at: row.at, reason: row.reason ?? '' } : undefined;
}
