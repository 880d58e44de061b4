import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { platformSettings } from '../db/schema';

/** One platform setting's stored text, if any. */
export async function readPlatformSetting(db: Database, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, key)).limit(1);
  return row?.value;
}

/** Stores one platform setting (inserted or replaced). */
export async function writePlatformSetting(db: Database, key: string, value: string): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: sql`now()` } });
}
