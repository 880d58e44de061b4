import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { platformSettings } from '../db/schema';
import { sandboxEnabled } from './sandbox-enabled';

/**
 * Whether the service that owns a database runs with the sandbox: recorded by the service at every start, so that a
 * command run from elsewhere (the admin CLI with a development NODE_ENV, say) cannot put sandbox credentials into a
 * database whose service has the sandbox off.
 */
const SETTING_KEY = 'sandbox_mode';

export async function recordServiceSandboxMode(db: Database): Promise<void> {
  const value = sandboxEnabled() ? 'on' : 'off';
  await db
    .insert(platformSettings)
    .values({ key: SETTING_KEY, value })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: sql`now()` } });
}

/** 'off' when the database's service last started with the sandbox off; undefined before any service started on it. */
export async function databaseSandboxMode(db: Database): Promise<'on' | 'off' | undefined> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, SETTING_KEY)).limit(1);
  return row?.value === 'on' || row?.value === 'off' ? row.value : undefined;
}
