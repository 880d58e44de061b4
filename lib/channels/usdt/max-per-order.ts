import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { prepared } from '../../db/prepared';
import { platformSettings } from '../../db/schema';
import { recordAudit } from '../../audit/record-audit';
import { formatMinorUnits } from '../../money/decimal-amount';
import { writePlatformSetting } from '../../settings/platform-settings';

/** The platform's per-order limit for USDT orders (a platform setting; larger orders are refused with 1008). */
export const USDT_MAX_PER_ORDER = 'usdt_max_per_order_minor';
export const DEFAULT_USDT_MAX_PER_ORDER_MINOR = 1_000_000n; // 10000.00 USDT

export async function getUsdtMaxPerOrderMinor(db: Database): Promise<bigint> {
  const statement = prepared(db, 'platform_setting_by_key', (handle, name) =>
    handle.select().from(platformSettings).where(eq(platformSettings.key, sql.placeholder('key'))).limit(1).prepare(name),
  );
  const [row] = await statement.execute({ key: USDT_MAX_PER_ORDER });
  return row ? BigInt(row.value) : DEFAULT_USDT_MAX_PER_ORDER_MINOR;
}

/** Sets the USDT per-order limit; with `audit` (operator CLI and console) the change and its entry are one transaction. */
export async function setUsdtMaxPerOrderMinor(db: Database, minor: bigint, audit?: { actor: string; reason?: string }): Promise<void> {
  if (minor <= 0n) throw new RangeError('the USDT per-order limit must be greater than 0');
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select().from(platformSettings).where(eq(platformSettings.key, USDT_MAX_PER_ORDER)).for('update');
    await writePlatformSetting(tx, USDT_MAX_PER_ORDER, minor.toString());
    if (audit) {
      await recordAudit(tx, {
        actor: audit.actor,
        action: 'limit.usdt_max_per_order',
        subject: 'setting:usdt_max_per_order',
        reason: audit.reason,
        before: { usdtMaxPerOrder: formatMinorUnits(before ? BigInt(before.value) : DEFAULT_USDT_MAX_PER_ORDER_MINOR) },
        after: { usdtMaxPerOrder: formatMinorUnits(minor) },
      });
    }
  });
}
