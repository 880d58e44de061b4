import { randomBytes } from 'node:crypto';
import { notFound } from '../errors/domain-error';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { confirmStepUp } from '../accounts/step-up';
import { decryptSecret, encryptSecret } from '../crypto/secret-box';
import { portalActor, type MerchantContext } from './merchant-context';

/** The current AppSecret of the context's merchant (for comparisons on the server; never sent without a password). */
export async function currentAppSecret(db: Database, context: MerchantContext): Promise<string> {
  const [row] = await db.select({ secret: merchants.appSecretEncrypted }).from(merchants).where(eq(merchants.id, context.merchantId)).limit(1);
  if (!row) throw notFound('merchant');
  return decryptSecret(row.secret);
}

/** The AppSecret of the context's merchant, after the step-up (the password again, or the authenticator app's code). */
export async function revealAppSecret(db: Database, context: MerchantContext, input: { password: string; now: Date }): Promise<string> {
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  const secret = await currentAppSecret(db, context);
  await recordAudit(db, { actor: portalActor(context), action: 'merchant.app_secret.reveal', subject: `merchant:${context.appId}` });
  return secret;
}

/** How long a rotated-out AppSecret may keep signing requests, at most: the merchant may end the overlap sooner. */
export const APP_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Replaces the AppSecret of the context's merchant. Without `overlap`, requests signed with the old secret fail (1002)
 * from the moment this commits; with it, the old secret keeps signing valid requests for 24 hours (or until
 * endAppSecretOverlap), so the merchant's servers can switch one by one. Notifications are signed with the new one at
 * once. Audited, with the overlap's end. Returns the new secret, shown once.
 */
export async function rotateAppSecret(db: Database, context: MerchantContext, input: { password: string; now: Date; overlap?: boolean }): Promise<string> {
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  const appSecret = randomBytes(24).toString('base64url');
  const overlapUntil = input.overlap ? new Date(input.now.getTime() + APP_SECRET_OVERLAP_MS) : null;
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select({ secret: merchants.appSecretEncrypted }).from(merchants).where(eq(merchants.id, context.merchantId)).for('update');
    if (!before) throw notFound('merchant');
    await tx
      .update(merchants)
      .set({
        appSecretEncrypted: encryptSecret(appSecret),
        previousAppSecretEncrypted: overlapUntil ? before.secret : null,
        previousAppSecretUntil: overlapUntil,
        updatedAt: input.now,
      })
      .where(eq(merchants.id, context.merchantId));
    await recordAudit(tx, {
      actor: portalActor(context),
      action: 'merchant.app_secret.rotate',
      subject: `merchant:${context.appId}`,
      after: { previousSecretValidUntil: overlapUntil?.toISOString() ?? null },
    });
  });
  return appSecret;
}

/** Until when the AppSecret before the last rotation still signs valid requests at `now`; null when it does not. */
export async function appSecretOverlapUntil(db: Database, context: MerchantContext, now: Date): Promise<Date | null> {
  const [row] = await db.select({ until: merchants.previousAppSecretUntil }).from(merchants).where(eq(merchants.id, context.merchantId)).limit(1);
  return row?.until && row.until.getTime() > now.getTime() ? row.until : null;
}

/** Ends the overlap now: the previous AppSecret stops working (1002) from the moment this commits. Audited. */
export async function endAppSecretOverlap(db: Database, context: MerchantContext, input: { password: string; now: Date }): Promise<{ endedAt: Date }> {
  // As grave as the rotation it cuts short (every request still signed with the old secret fails from now): the
  // step-up again.
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const ended = await tx
      .update(merchants)
      .set({ previousAppSecretEncrypted: null, previousAppSecretUntil: null, updatedAt: input.now })
      .where(and(eq(merchants.id, context.merchantId), isNotNull(merchants.previousAppSecretEncrypted)))
      .returning({ id: merchants.id });
    if (ended.length === 0) return;
    await recordAudit(tx, { actor: portalActor(context), action: 'merchant.app_secret.overlap_end', subject: `merchant:${context.appId}` });
  });
  return { endedAt: input.now };
}
