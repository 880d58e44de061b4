import { ensureEmbeddedServer, type EmbeddedServerHandle } from './embedded-server';
import { applyMigrations } from './migrate';

export interface DatabaseTarget {
  url: string;
  embedded?: EmbeddedServerHandle;
}

/**
 * Entry points call this once: DATABASE_URL when set, else the embedded server (found or started).
 * It sets process.env.DATABASE_URL so that everything in the process (and its children) uses the same database.
 */
export async function resolveDatabase(options: { owner?: boolean; migrate?: boolean; log?: (line: string) => void } = {}): Promise<DatabaseTarget> {
  let target: DatabaseTarget;
  if (process.env.DATABASE_URL) {
    target = { url: process.env.DATABASE_URL };
  } else {
    const embedded = await ensureEmbeddedServer({ owner: options.owner, log: options.log });
    process.env.DATABASE_URL = embedded.databaseUrl;
    target = { url: embedded.databaseUrl, embedded };
  }
  if (options.migrate ?? true) await applyMigrations(target.url);
  return target;
}
