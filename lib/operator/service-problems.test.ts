import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { listAttention } from './attention';
import { healthSnapshot } from './health';

const db = () => getDb();

describe('the service itself on the health page and the attention list', () => {
  it('a job without success for its stale period is red and listed; it leaves the list once it succeeds again', async () => {
    const now = new Date();
    // usdt-order-expiry runs every 10 s: stale after 5 intervals or half its 100 s deadline, whichever is longer (50 s).
    await db().execute(sql`INSERT INTO job_runs (name, last_started_at, last_finished_at, last_duration_ms, last_outcome, last_success_at, last_error, last_error_at, run_count, failure_count)
      VALUES ('usdt-order-expiry', ${new Date(now.getTime() - 10_000)}, ${new Date(now.getTime() - 10_000)}, 5, 'failed', ${new Date(now.getTime() - 120_000)}, 'read ECONNRESET', ${new Date(now.getTime() - 10_000)}, 20, 9)`);
    const health = await healthSnapshot(db(), now);
    expect(health.jobs.find((job) => job.name === 'usdt-order-expiry')).toMatchObject({ stale: true, staleAfterMs: 50_000 });
    expect(health.jobs.find((job) => job.name === 'usdt-chain-watcher')).toMatchObject({ stale: false }); // never run: not judged
    expect((await listAttention(db(), now)).service).toEqual([
      { kind: 'stale_job', job: 'usdt-order-expiry', lastSuccessAt: new Date(now.getTime() - 120_000), lastError: 'read ECONNRESET', staleAfterMs: 50_000 },
    ]);

    await db().execute(sql`UPDATE job_runs SET last_success_at = ${new Date(now.getTime() - 5_000)}, last_outcome = 'ok' WHERE name = 'usdt-order-expiry'`);
    expect((await listAttention(db(), now)).service).toEqual([]);
  });

  it('a chain watcher further behind than CHAIN_WATCHER_MAX_LAG_SECONDS is red and listed', async () => {
    const now = new Date();
    const setCursor = (ageMs: number) =>
      db().execute(sql`INSERT INTO chain_cursors (name, block_timestamp_ms) VALUES ('usdt-trc20', ${now.getTime() - ageMs})
        ON CONFLICT (name) DO UPDATE SET block_timestamp_ms = EXCLUDED.block_timestamp_ms`);
    await setCursor(299_000);
    expect((await healthSnapshot(db(), now)).chain).toMatchObject({ lagMs: 299_000, behind: false, maxLagMs: 300_000 });
    expect((await listAttention(db(), now)).service.filter((problem) => problem.kind === 'watcher_behind')).toEqual([]);
    await setCursor(58 * 60_000); // the report's watcher: 58 minutes behind, and the page was green
    expect((await healthSnapshot(db(), now)).chain).toMatchObject({ behind: true });
    expect((await listAttention(db(), now)).service).toContainEqual({ kind: 'watcher_behind', lagMs: 58 * 60_000, maxLagMs: 300_000, cursorAt: new Date(now.getTime() - 58 * 60_000) });

    // A quiet chain: no payment for 58 minutes, but the watcher has read through the final block 3 s ago.
    await db().execute(sql`INSERT INTO chain_cursors (name, block_timestamp_ms) VALUES ('usdt-trc20:read-through', ${now.getTime() - 3_000})`);
    expect((await healthSnapshot(db(), now)).chain).toMatchObject({ lagMs: 3_000, behind: false, cursorAt: new Date(now.getTime() - 58 * 60_000) });
    expect((await listAttention(db(), now)).service).toEqual([]);
  });
});
