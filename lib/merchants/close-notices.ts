import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { notFound } from '../errors/domain-error';

/** Whether the merchant gets close and expiry notices (off unless it opted in). */
export async function closeNoticesEnabled(db: Database, merchantId: number): Promise<boolean> {
  const [row] = await db.select({ closeNotices: merchants.closeNotices }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  if (!row) throw notFound('merchant');
  return row.closeNotices;
}

/**
 * Opts the merchant in or out of close and expiry notices (status CLOSED / EXPIRED, to each order's notifyUrl).
 * A change is audited in the same transaction, under the merchant's row lock; setting the current value changes nothing.
 */
export async function setCloseNotices(db: Database, input: { merchantId: number; enabled: boolean; actor: string; now: Date }): Promise<boolean> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select({ appId: merchants.appId, closeNotices: merchants.closeNotices }).from(merchants).where(eq(merchants.id, input.merchantId)).for('update');
    if (!before) throw notFound('merchant');
    if (before.closeNotices === input.enabled) return input.enabled;
    await tx.update(merchants).set({ closeNotices: input.enabled, updatedAt: input.now }).where(eq(merchants.id, input.merchantId));
    await recordAudit(tx, {
      actor: input.actor,
      action: 'merchant.close_notices',
      subject: `merchant:${before.appId}`,
      before: { closeNotices: before.closeNotices },
      after: { closeNotices: input.enabled },
    });
    return input.enabled;
  });
}
