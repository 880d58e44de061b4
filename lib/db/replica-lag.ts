import { sql } from 'drizzle-orm';
import type { Database } from './client';

/**
 * How many seconds the replica is behind the primary, compared by WAL position: when the replica has replayed
 * everything the primary has written, it is 0 however long ago the last transaction was (an idle primary would make
 * `now() - pg_last_xact_replay_timestamp()` alone look old); when it has not, the time since the last transaction it
 * replayed, which is how old its view of the data is. A replica that never replayed a transaction counts as behind
 * without end (Infinity), never as caught up.
 */
export async function measureReplicaLag(primary: Database, replica: Database): Promise<number> {
  const written = await primary.execute<{ lsn: string }>(sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  const { rows } = await replica.execute<{ caught_up: boolean | null; behind: number | null }>(sql`
    SELECT pg_last_wal_replay_lsn() >= ${written.rows[0]!.lsn}::pg_lsn AS caught_up,
           extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS behind`);
  const row = rows[0]!;
  if (row.caught_up) return 0;
  return row.behind === null ? Infinity : Math.max(0, Number(row.behind));
}
