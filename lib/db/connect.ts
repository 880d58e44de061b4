import { verifyEncryptionKey } from '../crypto/key-check';
import { ensureProcessSecrets } from '../config/process-secrets';
import { settleRuntimeMode } from '../config/runtime-mode';
import { embeddedDataDir, ensureEmbeddedServer, type EmbeddedServerHandle } from './embedded-server';
import { EmbeddedServerError } from './embedded-server-error';
import { applyMigrations } from './migrate';
import { refuseWithoutPrimary } from './primary-at-start';
import { databaseClient } from './primary-client';
import { refuseUnfitReplica } from './replica-at-start';
import { replicaUrl } from './replica-settings';

export interface DatabaseTarget {
  url: string;
  embedded?: EmbeddedServerHandle;
}

/**
 * Entry points call this once: DATABASE_URL when set, else the embedded server (found or started).
 * An embedded server that cannot start ends the process with a one-line message.
 * It sets process.env.DATABASE_URL so that everything in the process (and its children) uses the same database, and
 * settles the process's secrets (required with DATABASE_URL, the data directory's own on the embedded server) and mode
 * before anything else runs; a key that is not the database's is refused here (key check value), and so is a
 * multi-host DATABASE_URL none of whose hosts accepts writes, and a DATABASE_REPLICA_URL that is not a standby of it.
 */
export async function resolveDatabase(options: { owner?: boolean; migrate?: boolean; log?: (line: string) => void } = {}): Promise<DatabaseTarget> {
  let target: DatabaseTarget;
  if (process.env.DATABASE_URL) {
    settleRuntimeMode(false);
    await ensureProcessSecrets({});
    target = { url: process.env.DATABASE_URL };
  } else {
    settleRuntimeMode(true);
    await ensureProcessSecrets({ embeddedDataDir: embeddedDataDir() });
    const embedded = await ensureEmbeddedServer({ owner: options.owner, log: options.log }).catch(exitOnStartFailure);
    process.env.DATABASE_URL = embedded.databaseUrl;
    target = { url: embedded.databaseUrl, embedded };
  }
  await refuseWithoutPrimary(target.url);
  const replica = replicaUrl();
  if (replica) await refuseUnfitReplica(target.url, replica);
  if (options.migrate ?? true) await applyMigrations(target.url);
  await verifyEncryptionKey(() => databaseClient(target.url), { embeddedDataDir: target.embedded ? embeddedDataDir() : undefined });
  return target;
}

/** What to do about a database that cannot start fits on one line; a stack trace would only bury it. */
function exitOnStartFailure(error: unknown): never {
  if (!(error instanceof EmbeddedServerError)) throw error;
  console.error(error.message);
  process.exit(1);
}
