import type { Database } from '../db/client';
import { readPlatformSetting, writePlatformSetting } from '../settings/platform-settings';
import { sandboxEnabled } from './sandbox-enabled';

/**
 * Whether the service that owns a database runs with the sandbox: recorded by the service at every start, so that a
 * command run from elsewhere (the admin CLI with a development NODE_ENV, say) cannot put sandbox credentials into a
 * database whose service has the sandbox off.
 */
const SETTING_KEY = 'sandbox_mode';

export async function recordServiceSandboxMode(db: Database): Promise<void> {
  await writePlatformSetting(db, SETTING_KEY, sandboxEnabled() ? 'on' : 'off');
}

/** 'off' when the database's service last started with the sandbox off; undefined before any service started on it. */
export async function databaseSandboxMode(db: Database): Promise<'on' | 'off' | undefined> {
  const value = await readPlatformSetting(db, SETTING_KEY);
  return value === 'on' || value === 'off' ? value : undefined;
}
