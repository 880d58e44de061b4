import type { Database } from '../db/client';
import { readPlatformSetting, writePlatformSetting } from './platform-settings';

/**
 * Where the running service answers (its PUBLIC_BASE_URL, or http://localhost:<PORT>), recorded in its database at
 * start so that the command-line tools on the same database (the sandbox's payer and callbacks) reach it wherever
 * it listens, not wherever their own environment would guess.
 */
const SERVICE_BASE_URL = 'service_base_url';

export async function recordServiceBaseUrl(db: Database, baseUrl: string): Promise<void> {
  await writePlatformSetting(db, SERVICE_BASE_URL, baseUrl);
}

export async function recordedServiceBaseUrl(db: Database): Promise<string | undefined> {
  return readPlatformSetting(db, SERVICE_BASE_URL);
}

/** A tool's own PUBLIC_BASE_URL wins; else the running service's recorded address is used for this process. */
export async function adoptServiceBaseUrl(db: Database): Promise<void> {
  if (process.env.PUBLIC_BASE_URL) return;
  const recorded = await recordedServiceBaseUrl(db);
  if (recorded) process.env.PUBLIC_BASE_URL = recorded;
}
