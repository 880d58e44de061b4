import { randomBytes } from 'node:crypto';
import { notFound } from '../errors/domain-error';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { confirmPassword } from '../accounts/change-password';
import { decryptSecret, encryptSecret } from '../crypto/secret-box';
import { portalActor, type MerchantContext } from './merchant-context';

/** The current AppSecret of the context's merchant (for comparisons on the server; never sent without a password). */
export async function currentAppSecret(db: Database, context: MerchantContext): Promise<string> {
  const [row] = await db.select({ secret: merchants.appSecretEncrypted }).from(merchants).where(eq(merchants.id, context.merchantId)).limit(1);
  if (!row) throw notFound('merchant');
  return decryptSecret(row.secret);
}

/** The AppSecret of the context's merchant, after the account's password was entered again. */
export async function revealAppSecret(db: Database, context: MerchantContext, input: { password: string; now: Date }): Promise<string> {
  await confirmPassword(db, { accountId: context.accountId, password: input.password, now: input.now });
  const secret = await currentAppSecret(db, context);
  await recordAudit(db, { actor: portalActor(context), action: 'merchant.app_secret.reveal', subject: `merchant:${context.appId}` });
  return secret;
}

/**
 * Replaces the AppSecret of the context's merchant. Requests signed with the old secret fail (1002) from the moment
 * this commits: signed requests read the secret from the merchants row. Returns the new secret, shown once.
 */
export async function rotateAppSecret(db: Database, context: MerchantContext, input: { password: string; now: Date }): Promise<string> {
  await confirmPassword(db, { accountId: context.accountId, password: input.password, now: input.now });
  const appSecret = randomBytes(24).toString('base64url');
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const updated = await tx
      .update(merchants)
      .set({ appSecretEncrypted: encryptSecret(appSecret), updatedAt: input.now })
      .where(eq(merchants.id, context.merchantId))
      .returning({ id: merchants.id });
    if (updated.length === 0) throw notFound('merchant');
    await recordAudit(tx, { actor: portalActor(context), action: 'merchant.app_secret.rotate', subject: `merchant:${context.appId}` });
  });
  return appSecret;
}
