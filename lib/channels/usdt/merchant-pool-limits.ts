import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { merchants } from '../../db/schema';
import { recordAudit } from '../../audit/record-audit';
import { DomainError } from '../../errors/domain-error';
import { usdtMerchantLimits } from './schema';

/** One limit as the operator sets it: a number of slots, 'none' (no limit) or 'default' (the rule's default). */
export type PoolLimitSetting = number | 'none' | 'default';

export interface MerchantPoolLimits {
  appId: string;
  maxHeldSlots: PoolLimitSetting;
  maxAmountSlots: PoolLimitSetting;
}

/** The stored column value (NULL: default; 0: none) as a setting, and back. */
const settingOf = (stored: number | null | undefined): PoolLimitSetting => (stored === null || stored === undefined ? 'default' : stored === 0 ? 'none' : stored);
const storedOf = (setting: PoolLimitSetting): number | null => (setting === 'default' ? null : setting === 'none' ? 0 : setting);

async function merchantIdOf(db: Database, appId: string): Promise<number> {
  const [merchant] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.appId, appId)).limit(1);
  if (!merchant) throw new DomainError('merchant_not_found', { message: `merchant not found: ${appId}` });
  return merchant.id;
}

/** A merchant's limits on the shared USDT pool as the operator set them (fair-share.ts applies them). */
export async function findMerchantPoolLimits(db: Database, appId: string): Promise<MerchantPoolLimits> {
  const merchantId = await merchantIdOf(db, appId);
  const [row] = await db.select().from(usdtMerchantLimits).where(eq(usdtMerchantLimits.merchantId, merchantId)).limit(1);
  return { appId, maxHeldSlots: settingOf(row?.maxHeldSlots), maxAmountSlots: settingOf(row?.maxAmountSlots) };
}

/**
 * Sets a merchant's pool limits (an absent one keeps its value); the change and its audit entry (before/after) are
 * one transaction. It applies to the merchant's next submit; orders it already holds keep their slots.
 */
export async function setMerchantPoolLimits(
  db: Database,
  appId: string,
  change: { maxHeldSlots?: PoolLimitSetting; maxAmountSlots?: PoolLimitSetting },
  audit: { actor: string; reason?: string },
): Promise<MerchantPoolLimits> {
  for (const value of [change.maxHeldSlots, change.maxAmountSlots]) {
    if (typeof value === 'number' && (!Number.isInteger(value) || value < 1)) throw new RangeError('a pool limit must be a whole number of slots, 1 or more');
  }
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const before = await findMerchantPoolLimits(tx, appId);
    const after = { appId, maxHeldSlots: change.maxHeldSlots ?? before.maxHeldSlots, maxAmountSlots: change.maxAmountSlots ?? before.maxAmountSlots };
    const values = { maxHeldSlots: storedOf(after.maxHeldSlots), maxAmountSlots: storedOf(after.maxAmountSlots), updatedAt: new Date() };
    await tx
      .insert(usdtMerchantLimits)
      .values({ merchantId: await merchantIdOf(tx, appId), ...values })
      .onConflictDoUpdate({ target: usdtMerchantLimits.merchantId, set: values });
    await recordAudit(tx, {
      actor: audit.actor,
      action: 'merchant.usdt_pool_limits',
      subject: `merchant:${appId}`,
      reason: audit.reason,
      before: { maxHeldSlots: before.maxHeldSlots, maxAmountSlots: before.maxAmountSlots },
      after: { maxHeldSlots: after.maxHeldSlots, maxAmountSlots: after.maxAmountSlots },
    });
    return after;
  });
}
