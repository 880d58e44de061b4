import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { platformSettings } from '../db/schema';

/**
 * Where the running service answers (its PUBLIC_BASE_URL, or http://localhost:<PORT>), recorded in its database at
 * start so that the command-line tools on the same database (the sandbox's payer and callbacks) reach it wherever
 * it listens, not wherever their own environment would guess.
 */
const SERVICE_BASE_URL = 'service_base_url';

export async function recordServiceBaseUrl(db: Database, baseUrl: string): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ key: SERVICE_BASE_URL, value: baseUrl })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value: baseUrl, updatedAt: sql`now()` } });
}

export async function recordedServiceBaseUrl(db: Database): Promise<string | undefined> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, SERVICE_BASE_URL)).limit(1);
  return row?.value;
}

/** A tool's own PUBLIC_BASE_URL wins; else the running service's recorded address is used for this process. */
export async function adoptServiceBaseUrl(db: Database): Promise<void> {
  if (process.env.PUBLIC_BASE_URL) return;
  const recorded = await recordedServiceBaseUrl(db);
  if (recorded) process.env.PUBLIC_BASE_URL = recorded;
}
