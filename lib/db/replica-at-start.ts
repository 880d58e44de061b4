import pg from 'pg';
import { StartupRefusal } from '../config/startup-refusal';
import { hostName, parseDatabaseUrl } from './database-url';
import { databaseClient } from './primary-client';
import { REPLICA_URL_SETTING } from './replica-settings';

/** Each start-up probe of the replica and the primary answers within this, or the start is refused. */
const PROBE_DEADLINE_MS = 5_000;

interface ServerFacts {
  inRecovery: boolean;
  systemIdentifier: string;
}

async function factsOf(client: pg.Client): Promise<ServerFacts> {
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ in_recovery: boolean; system_identifier: string }>(
      'SELECT pg_is_in_recovery() AS in_recovery, (SELECT system_identifier::text FROM pg_control_system()) AS system_identifier',
    );
    return { inRecovery: rows[0]!.in_recovery, systemIdentifier: rows[0]!.system_identifier };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const limits = { connectionTimeoutMillis: PROBE_DEADLINE_MS, query_timeout: PROBE_DEADLINE_MS };

/**
 * At start, DATABASE_REPLICA_URL must be a standby of DATABASE_URL's cluster: a server in recovery (the primary itself
 * would take the back office's reads and be mistaken for a replica's figures) whose system identifier is the
 * primary's (a server of another cluster would show other data). Either is refused naming the check; a replica that
 * does not answer is refused too (nothing fails open). Messages name the host, never the user or the password.
 */
export async function refuseUnfitReplica(primaryUrl: string, url: string): Promise<void> {
  const where = hostName(parseDatabaseUrl(url).hosts[0]!);
  let replica: ServerFacts;
  try {
    replica = await factsOf(new pg.Client({ ...limits, connectionString: url }));
  } catch (error) {
    throw new StartupRefusal(REPLICA_URL_SETTING, `${where} did not answer the start-up check (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!replica.inRecovery) {
    throw new StartupRefusal(REPLICA_URL_SETTING, `${where} is not in recovery (pg_is_in_recovery() is false): it is a primary, not a replica; name a streaming standby of DATABASE_URL`);
  }
  const primary = await factsOf(databaseClient(primaryUrl, limits));
  if (replica.systemIdentifier !== primary.systemIdentifier) {
    throw new StartupRefusal(
      REPLICA_URL_SETTING,
      `${where} is of another cluster (pg_control_system().system_identifier ${replica.systemIdentifier}, the primary's ${primary.systemIdentifier}): name a standby of DATABASE_URL`,
    );
  }
}
