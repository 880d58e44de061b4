import { ensureEmbeddedServer, type EmbeddedServerHandle } from './embedded-server';
import { EmbeddedServerError } from './embedded-server-error';
import { applyMigrations } from './migrate';

export interface DatabaseTarget {
  url: string;
  embedded?: EmbeddedServerHandle;
}

/**
 * Entry points call this once: DATABASE_URL when set, else the embedded server (found or started).
 * An embedded server that cannot start ends the process with a one-line message.
 * It sets process.env.DATABASE_URL so that everything in the process (and its children) uses the same database.
 */
export async function resolveDatabase(options: { owner?: boolean; migrate?: boolean; log?: (line: string) => void } = {}): Promise<DatabaseTarget> {
  let target: DatabaseTarget;
  if (process.env.DATABASE_URL) {
    target = { url: process.env.DATABASE_URL };
  } else {
    const embedded = await ensureEmbeddedServer({ owner: options.owner, log: options.log }).catch(exitOnStartFailure);
    process.env.DATABASE_URL = embedded.databaseUrl;
    target = { url: embedded.databaseUrl, embedded };
  }
  if (options.migrate ?? true) await applyMigrations(target.url);
  return target;
}

/** What to do about a database that cannot start fits on one line; a stack trace would only bury it. */
function exitOnStartFailure(error: unknown): never {
  if (!(error instanceof EmbeddedServerError)) throw error;
  console.error(error.message);
  process.exit(1);
}
