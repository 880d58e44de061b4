import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { createMerchant } from '../merchants/merchants';
import { hashPassword, emailSchema, newPasswordSchema } from './passwords';
import { signUpAddressRule, takeAttempt } from './sign-in-throttle';

export const signUpSchema = z.object({
  merchantName: z.string().trim().min(2, 'Enter the business name / 请输入商户名称').max(100),
  email: emailSchema,
  password: newPasswordSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export class EmailAlreadyRegistered extends Error {
  constructor() {
    super('this email already has an account');
    this.name = 'EmailAlreadyRegistered';
  }
}

export class SignUpThrottled extends Error {
  constructor(readonly retryAt: Date | undefined) {
    super('too many sign-ups from this address');
    this.name = 'SignUpThrottled';
  }
}

/**
 * A new merchant (order permission off until an operator grants it, with its own AppID and AppSecret) and its first
 * merchant account, in one transaction. The AppSecret is not returned: its owner reveals it on the interface keys page.
 */
export async function signUpMerchant(db: Database, input: SignUpInput & { clientAddress: string; now: Date }) {
  const verdict = await takeAttempt(db, [signUpAddressRule(input.clientAddress)], input.now);
  if (!verdict.allowed) throw new SignUpThrottled(verdict.retryAt);
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [existing] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).limit(1);
    if (existing) throw new EmailAlreadyRegistered();
    const { merchant } = await createMerchant(tx, { name: input.merchantName, orderPermission: false });
    const inserted = await tx
      .insert(accounts)
      .values({ email, passwordHash, role: 'merchant', merchantId: merchant.id })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id });
    if (inserted.length === 0) throw new EmailAlreadyRegistered();
    await recordAudit(tx, { actor: `account:${email}`, action: 'merchant.sign_up', subject: `merchant:${merchant.appId}`, after: { name: merchant.name } });
    return { accountId: inserted[0]!.id, merchant };
  });
}
