import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { prepared } from '../db/prepared';
import { platformSettings } from '../db/schema';

const USDT_MAX_PER_ORDER = 'usdt_max_per_order_minor';
export const DEFAULT_USDT_MAX_PER_ORDER_MINOR = 1_000_000n; // 10000.00 USDT

export async function getUsdtMaxPerOrderMinor(db: Database): Promise<bigint> {
  const statement = prepared(db, 'platform_setting_by_key', (handle, name) =>
    handle.select().from(platformSettings).where(eq(platformSettings.key, sql.placeholder('key'))).limit(1).prepare(name),
  );
  const [row] = await statement.execute({ key: USDT_MAX_PER_ORDER });
  return row ? BigInt(row.value) : DEFAULT_USDT_MAX_PER_ORDER_MINOR;
}

export async function setUsdtMaxPerOrderMinor(db: Database, minor: bigint): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ key: USDT_MAX_PER_ORDER, value: minor.toString() })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value: minor.toString(), updatedAt: sql`now()` } });
}
