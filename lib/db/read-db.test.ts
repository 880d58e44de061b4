import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerScrapeGauges } from '../health/scrape-gauges';
import { listAuditLog } from '../operator/audit-log';
import { startStandbyPair, standbyPairUnavailable, type StandbyPair } from '../../test/standby-pair';
import { closeDb, getDb, type Database } from './client';
import { closeReadDb, getReadDb, replicaStanding } from './read-db';

const unavailable = standbyPairUnavailable();
const MAX_LAG_SECONDS = 3;

async function onServer<T>(port: number, statement: string): Promise<T[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return (await client.query(statement)).rows as T[];
  } finally {
    await client.end();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const inRecovery = async (db: Database) => (await db.$client.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0]!.r;
/** The replica's two gauges as a scrape reads them: [lag seconds, reads primary]. */
async function scrapeReplica(): Promise<[number, number]> {
  const registry = new Registry();
  registerScrapeGauges(registry, getDb);
  const value = async (name: string) => Number((await registry.getSingleMetric(name)!.get()).values[0]?.value);
  return [await value('payment_database_replica_lag_seconds'), await value('payment_database_replica_reads_primary')];
}
const subjects = async (db: Database) => (await listAuditLog(db, {})).rows.map((row) => row.subject);

/**
 * A real primary and its streaming standby (test/standby-pair.ts) as DATABASE_URL and DATABASE_REPLICA_URL. Replay is paused on the replica (pg_wal_replay_pause) to show which
 * server a read went to: the replica's list misses what the primary has, the read-your-writes read does not.
 */
describe.skipIf(unavailable !== undefined)('back-office reads on a replica', () => {
  let pair: StandbyPair;
  let primaryUrl: string;
  let replicaUrl: string;
  const saved = { url: process.env.DATABASE_URL, replica: process.env.DATABASE_REPLICA_URL, maxLag: process.env.DATABASE_REPLICA_MAX_LAG_SECONDS };

  beforeAll(async () => {
    pair = await startStandbyPair();
    primaryUrl = `postgres://postgres@127.0.0.1:${pair.primaryPort}/postgres`;
    replicaUrl = `postgres://postgres@127.0.0.1:${pair.standbyPort}/postgres`;
    await closeDb(); // the file's own database is not used here
    process.env.DATABASE_URL = primaryUrl;
    process.env.DATABASE_REPLICA_URL = replicaUrl;
    process.env.DATABASE_REPLICA_MAX_LAG_SECONDS = String(MAX_LAG_SECONDS);
    await getDb().$client.query(`CREATE TABLE audit_log (id bigserial PRIMARY KEY, actor text NOT NULL, action text NOT NULL, subject text NOT NULL,
      reason text, before jsonb, after jsonb, created_at timestamptz NOT NULL DEFAULT now())`);
  });

  afterAll(async () => {
    await closeReadDb();
    await closeDb();
    await pair?.close();
    for (const [name, value] of [['DATABASE_URL', saved.url], ['DATABASE_REPLICA_URL', saved.replica], ['DATABASE_REPLICA_MAX_LAG_SECONDS', saved.maxLag]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("a list reads the replica; the person's own write reads the primary; past the max lag the list falls back to the primary, and the scrape says so", async () => {
    await getDb().$client.query(`INSERT INTO audit_log (actor, action, subject) VALUES ('op', 'merchant.approve', 'before-pause')`);
    await until('the replica has the first row', async () => (await onServer<{ n: number }>(pair.standbyPort, 'SELECT count(*)::int AS n FROM audit_log'))[0]!.n === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the last lag figure's freshness
    const listDb = await getReadDb();
    expect(await inRecovery(listDb)).toBe(true);
    expect(await replicaStanding()).toMatchObject({ configured: true, lagSeconds: 0, readsReplica: true, maxLagSeconds: MAX_LAG_SECONDS });

    await onServer(pair.standbyPort, 'SELECT pg_wal_replay_pause()');
    const pausedAt = Date.now();
    await getDb().$client.query(`INSERT INTO audit_log (actor, action, subject) VALUES ('op', 'refund.create', 'own-write')`);

    // Within the max lag the list still reads the replica, which has not replayed the write; the author's read does.
    expect(await subjects(await getReadDb())).toEqual(['before-pause']);
    expect(await subjects(await getReadDb({ readPrimary: true }))).toEqual(['own-write', 'before-pause']);

    // The lag rises while replay is paused; past the max the back office reads the primary, and says why.
    let rising: number[] = [];
    await until('the replica lags beyond the max', async () => {
      const standing = await replicaStanding();
      if (!standing.configured || standing.lagSeconds === null) return false;
      rising.push(standing.lagSeconds);
      return !standing.readsReplica;
    });
    const fellBackAfterMs = Date.now() - pausedAt;
    rising = [...new Set(rising)];
    expect(rising.at(-1)!).toBeGreaterThan(MAX_LAG_SECONDS);
    expect(rising).toEqual([...rising].sort((a, b) => a - b));
    const [scrapedLag, scrapedReadsPrimary] = await scrapeReplica();
    expect(scrapedLag).toBeGreaterThan(MAX_LAG_SECONDS);
    expect(scrapedReadsPrimary).toBe(1);
    const fallback = await getReadDb();
    expect(await inRecovery(fallback)).toBe(false);
    expect(await subjects(fallback)).toEqual(['own-write', 'before-pause']);

    // Replay resumed: caught up (lag 0 by WAL position), the list reads the replica again and has the row.
    await onServer(pair.standbyPort, 'SELECT pg_wal_replay_resume()');
    await until('the replica is caught up again', async () => {
      const standing = await replicaStanding();
      return standing.configured && standing.readsReplica && standing.lagSeconds === 0;
    });
    expect(await scrapeReplica()).toEqual([0, 0]);
    const again = await getReadDb();
    expect(await inRecovery(again)).toBe(true);
    expect(await subjects(again)).toEqual(['own-write', 'before-pause']);
    console.log(`replica reads: fell back to the primary ${fellBackAfterMs} ms after replay paused (max lag ${MAX_LAG_SECONDS} s); lag figures seen ${rising.map((s) => s.toFixed(1)).join(', ')} s`);
  });
});
