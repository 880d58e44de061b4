import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { hashPassword, verifyPassword } from './passwords';
import { withReentryAttempt } from './reentry-attempt';

const passwordRejected = () =>
  new DomainError('password_rejected', {
    message: 'the password is not correct',
    userMessage: domainMessage('accounts.passwordRejected'),
    fieldErrors: { password: domainMessage('accounts.passwordRejectedField') },
  });

/**
 * Re-checks a signed-in account's password before a sensitive action (reveal or rotate a secret, change the
 * password). Wrong answers count against the account's re-entry throttle (apart from sign-in, which anyone can try).
 */
export async function confirmPassword(db: Database, input: { accountId: number; password: string; now: Date }) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, input.accountId)).limit(1);
  if (!row) throw passwordRejected();
  await withReentryAttempt(db, row.id, input.now, async () => {
    if (!(await verifyPassword(row.passwordHash, input.password))) throw passwordRejected();
  });
  return row;
}

/** Sets a new password and raises the session version, which signs out every other session of the account. */
export async function changePassword(db: Database, input: { accountId: number; currentPassword: string; newPassword: string; now: Date }) {
  const account = await confirmPassword(db, { accountId: input.accountId, password: input.currentPassword, now: input.now });
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .update(accounts)
      .set({ passwordHash, sessionVersion: sql`${accounts.sessionVersion} + 1` })
      .where(eq(accounts.id, account.id))
      .returning({ sessionVersion: accounts.sessionVersion });
    await recordAudit(tx, { actor: `account:${account.email}`, action: 'account.password_change', subject: `account:${account.id}` });
    return { sessionVersion: row!.sessionVersion };
  });
}
