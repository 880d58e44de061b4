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

/** For the service's own callers (tests, tools): the portal never says it (requestSignUp). */
const emailAlreadyRegistered = () => new DomainError('email_already_registered', { message: 'this email already has an account' });

/** Sign-ups from one network past the hour's limit: the portal's sign-up and an invitation's alike. */
export const signUpThrottled = () =>
  new DomainError('too_many_attempts', {
    message: 'too many sign-ups from this address',
    userMessage: domainMessage('accounts.signUpThrottled'),
  });

/**
 * A new merchant (order permission off until an operator grants it, with its own AppID and AppSecret) and its first
 * merchant account, in one transaction. The AppSecret is not returned: its owner reveals it on the interface keys page.
 * An email that already has an account (a merchant's or an operator's) is refused with `email_already_registered`
 * after the same work as a sign-up (the password hashed, the merchant created, the account's insert), all rolled
 * back: the two take the same time.
 */
export async function signUpMerchant(db: Database, input: SignUpInput & { clientAddress: string; now: Date }) {
  const verdict = await takeAttempt(db, [signUpAddressRule(input.clientAddress)], input.now);
  if (!verdict.allowed) throw signUpThrottled();
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const { merchant } = await createMerchant(tx, { name: input.merchantName, orderPermission: false });
    const inserted = await tx
      .insert(accounts)
      .values({ email, passwordHash, role: 'merchant', teamRole: 'owner', merchantId: merchant.id })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id });
    if (inserted.length === 0) throw emailAlreadyRegistered(); // rolls the merchant back
    await recordAudit(tx, { actor: `account:${email}`, action: 'merchant.sign_up', subject: `merchant:${merchant.appId}`, after: { name: merchant.name } });
    return { accountId: inserted[0]!.id, merchant };
  });
}

/**
 * The portal's sign-up: the same answer whether the email is new or already has an account (a merchant's or an
 * operator's), so the form cannot be used to learn who has one. Either way the person is sent to sign in with the
 * email and password they chose; a new account signs in, an existing one only with its own password. Refusals that
 * do not depend on the email (too many sign-ups from the address) are still told.
 */
export async function requestSignUp(db: Database, input: SignUpInput & { clientAddress: string; now: Date }): Promise<void> {
  try {
    await signUpMerchant(db, input);
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'email_already_registered')) throw error;
    // For the operator's audit log; a committed write, as a sign-up's, so both answers take about as long.
    await recordAudit(db, { actor: 'anonymous', action: 'account.sign_up_existing_email', subject: `account:${input.email.trim().toLowerCase()}` });
  }
}
