import { eq } from 'drizzle-orm';
import { DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { z } from 'zod';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { createMerchant } from '../merchants/merchants';
import { hashPassword, emailSchema, newPasswordSchema } from './passwords';
import { signUpAddressRule, takeAttempt } from './sign-in-throttle';

export const signUpSchema = z.object({
  merchantName: z.string().trim().min(2, 'Enter the business name').max(100),
  email: emailSchema,
  password: newPasswordSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

const emailAlreadyRegistered = () =>
  new DomainError('email_already_registered', {
    message: 'this email already has an account',
    userMessage: domainMessage('accounts.emailRegistered'),
    fieldErrors: { email: domainMessage('accounts.emailRegisteredField') },
  });

const signUpThrottled = () =>
  new DomainError('too_many_attempts', {
    message: 'too many sign-ups from this address',
    userMessage: domainMessage('accounts.signUpThrottled'),
  });

/**
 * A new merchant (order permission off until an operator grants it, with its own AppID and AppSecret) and its first
 * merchant account, in one transaction. The AppSecret is not returned: its owner reveals it on the interface keys page.
 */
export async function signUpMerchant(db: Database, input: SignUpInput & { clientAddress: string; now: Date }) {
  const verdict = await takeAttempt(db, [signUpAddressRule(input.clientAddress)], input.now);
  if (!verdict.allowed) throw signUpThrottled();
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [existing] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).limit(1);
    if (existing) throw emailAlreadyRegistered();
    const { merchant } = await createMerchant(tx, { name: input.merchantName, orderPermission: false });
    const inserted = await tx
      .insert(accounts)
      .values({ email, passwordHash, role: 'merchant', merchantId: merchant.id })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id });
    if (inserted.length === 0) throw emailAlreadyRegistered();
    await recordAudit(tx, { actor: `account:${email}`, action: 'merchant.sign_up', subject: `merchant:${merchant.appId}`, after: { name: merchant.name } });
    return { accountId: inserted[0]!.id, merchant };
  });
}
