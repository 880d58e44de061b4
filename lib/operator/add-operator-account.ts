import { eq } from 'drizzle-orm';
import { actionRefused } from '../errors/domain-error';
import { z } from 'zod';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { emailSchema, hashPassword, newPasswordSchema } from '../accounts/passwords';

const operatorAccountSchema = z.object({ email: emailSchema, password: newPasswordSchema });

/**
 * Creates an operator account (the console's sign-in). The email must be new; the password follows the portal's
 * rules and is stored as an argon2id hash. The account and its audit entry are one transaction.
 */
export async function addOperatorAccount(db: Database, input: { email: string; password: string; actor: string }) {
  const parsed = operatorAccountSchema.safeParse({ email: input.email, password: input.password });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw actionRefused(`${String(issue.path[0])}: ${issue.message}`);
  }
  const { email, password } = parsed.data;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [existing] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).limit(1);
    if (existing) throw actionRefused(`email: ${email} already has an account`);
    const inserted = await tx
      .insert(accounts)
      .values({ email, passwordHash, role: 'operator' })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id, email: accounts.email });
    if (inserted.length === 0) throw actionRefused(`email: ${email} already has an account`);
    const account = inserted[0]!;
    await recordAudit(tx, { actor: input.actor, action: 'operator.add', subject: `account:${account.id}`, after: { email: account.email, role: 'operator' } });
    return account;
  });
}
