import { createDatabase, getDb, type Database } from './client';
import { measureReplicaLag } from './replica-lag';
import { replicaMaxLagSeconds, replicaUrl } from './replica-settings';

/** A lag measured this recently is used as it is; an older one is measured again before the next read chooses. */
const LAG_FRESH_MS = 1_000;
/** A measurement answers within this, or the replica counts as unmeasured (and the back office reads the primary). */
const LAG_DEADLINE_MS = 2_000;

/** Where the back office's reads go now, and why: shown on the health page and scraped as metrics. */
export type ReplicaStanding =
  | { configured: false }
  | {
      configured: true;
      /** Seconds behind the primary; null when the last measurement failed or missed its deadline. */
      lagSeconds: number | null;
      maxLagSeconds: number;
      /** True only when measured within the max lag: anything else reads the primary (nothing fails open). */
      readsReplica: boolean;
      measuredAt: Date;
    };

type Measured = Extract<ReplicaStanding, { configured: true }>;

// On globalThis like the primary's pool (client.ts): Next.js loads the pages' modules apart from the server's.
const state = globalThis as unknown as { __paymentReadDb?: { url: string; db: Database; last?: Measured; inFlight?: Promise<Measured> } };

function replicaPool(url: string) {
  if (state.__paymentReadDb?.url !== url) {
    void state.__paymentReadDb?.db.$client.end().catch(() => undefined);
    state.__paymentReadDb = { url, db: createDatabase(url) };
  }
  return state.__paymentReadDb;
}

function withinDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`replica lag not measured within ${LAG_DEADLINE_MS} ms`)), LAG_DEADLINE_MS);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The replica's lag and whether the back office reads it, measured again when the last figure is over a second old. */
export async function replicaStanding(now = Date.now()): Promise<ReplicaStanding> {
  const url = replicaUrl();
  if (!url) return { configured: false };
  const pool = replicaPool(url);
  if (pool.last && now - pool.last.measuredAt.getTime() < LAG_FRESH_MS) return pool.last;
  pool.inFlight ??= (async () => {
    const maxLagSeconds = replicaMaxLagSeconds();
    const lagSeconds = await withinDeadline(measureReplicaLag(getDb(), pool.db)).catch(() => null);
    const measured: Measured = { configured: true, lagSeconds, maxLagSeconds, readsReplica: lagSeconds !== null && lagSeconds <= maxLagSeconds, measuredAt: new Date() };
    pool.last = measured;
    return measured;
  })().finally(() => (pool.inFlight = undefined));
  return pool.inFlight;
}

/**
 * The database the back office's lists, dashboards and reconciliation views read: the replica (DATABASE_REPLICA_URL)
 * while it is within DATABASE_REPLICA_MAX_LAG_SECONDS of the primary, else the primary. `readPrimary`: the person has
 * just written (read-your-writes.ts), so the page must not show the past: the primary, whatever the replica's lag.
 * Writes, the open API and checkout never come here: they use getDb().
 */
export async function getReadDb(options: { readPrimary?: boolean } = {}): Promise<Database> {
  if (options.readPrimary) return getDb();
  const standing = await replicaStanding();
  return standing.configured && standing.readsReplica ? state.__paymentReadDb!.db : getDb();
}

export async function closeReadDb(): Promise<void> {
  const cached = state.__paymentReadDb;
  state.__paymentReadDb = undefined;
  await cached?.db.$client.end();
}
