import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { createDatabase, getDb } from '../db/client';
import { jobRuns } from '../db/schema';
import { healthSnapshot } from '../operator/health';
import { JobLockLost, runJobExclusively, schedulePeriodicJobs, type PeriodicJob } from './periodic-job';

const log = () => undefined;

describe('periodic jobs', () => {
  it('runs a job in one process at a time: a second process is turned away while the first holds it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    let started!: () => void;
    const firstRunStarted = new Promise<void>((resolve) => (started = resolve));
    const job: PeriodicJob = {
      name: 'exclusive-test',
      intervalMs: 1000,
      async run() {
        runs += 1;
        started();
        await held;
      },
    };
    const otherProcessPool = createDatabase(process.env.DATABASE_URL!, 2);
    const first = runJobExclusively(job, { db: getDb(), clock: systemClock, log });
    // The first holds the job once its run has begun (not after a guessed delay: a loaded machine is slower).
    await firstRunStarted;
    expect(await runJobExclusively(job, { db: otherProcessPool, clock: systemClock, log })).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await runJobExclusively(job, { db: otherProcessPool, clock: systemClock, log })).toBe(true);
    expect(runs).toBe(2);
    await otherProcessPool.$client.end();
  });

  it('keeps running after a failing run and stops cleanly', async () => {
    let runs = 0;
    const failing: PeriodicJob = {
      name: 'failing-test',
      intervalMs: 20,
      async run() {
        runs += 1;
        throw new Error('upstream down');
      },
    };
    const lines: string[] = [];
    const scheduled = schedulePeriodicJobs([failing], { db: getDb(), clock: systemClock, log: (line) => lines.push(line) });
    // Each run also records itself in job_runs: wait for three runs rather than a fixed time (a loaded machine is slow).
    await expect.poll(() => runs, { timeout: 10_000, interval: 20 }).toBeGreaterThan(2);
    await scheduled.stop();
    expect(runs).toBeGreaterThan(2);
    expect(lines).toEqual(['job failing-test failed: upstream down']); // repeats within a minute are not logged again
  });

  it('abandons a run that never settles at its deadline: health is red before, the lock is released, the failure recorded, the next run happens', async () => {
    let runs = 0;
    let hangingSignal: AbortSignal | undefined;
    const job: PeriodicJob = {
      name: 'hanging-test',
      intervalMs: 100,
      deadlineMs: 4_000, // stale after max(5 × 100 ms, 4 s / 2) = 2 s: red before the deadline
      async run({ signal }) {
        runs += 1;
        if (runs === 2) {
          hangingSignal = signal;
          await new Promise(() => undefined); // what the hung watcher awaited: something that never settles
        }
      },
    };
    const lines: string[] = [];
    const scheduled = schedulePeriodicJobs([job], { db: getDb(), clock: systemClock, log: (line) => lines.push(line) });
    const otherProcess = createDatabase(process.env.DATABASE_URL!, 2);
    try {
      await expect.poll(() => runs, { timeout: 10_000, interval: 20 }).toBe(2);
      const hungAt = Date.now();
      // While it hangs, no other worker may take the job (its lock is held) ...
      expect(await runJobExclusively(job, { db: otherProcess, clock: systemClock, log: () => undefined })).toBe(false);
      // ... and health turns red once it has had no success for its stale period, before the deadline.
      const staleness = async () => (await healthSnapshot(getDb(), new Date(), [job])).jobs.find((entry) => entry.name === job.name)?.stale;
      await expect.poll(staleness, { timeout: 10_000, interval: 100 }).toBe(true);
      expect(Date.now() - hungAt).toBeLessThan(4_000);
      expect(runs).toBe(2);

      // Past the deadline: abandoned (its signal aborted), recorded as failed, and the next runs take the lock again.
      await expect.poll(() => runs, { timeout: 15_000, interval: 50 }).toBeGreaterThan(3);
      expect(Date.now() - hungAt).toBeGreaterThanOrEqual(3_900);
      expect(hangingSignal?.aborted).toBe(true);
      expect(lines).toContainEqual(expect.stringContaining('job hanging-test failed: run did not finish within its deadline of 4 s'));
      const [row] = await getDb().select().from(jobRuns).where(eq(jobRuns.name, job.name));
      expect(row).toMatchObject({ failureCount: 1, lastOutcome: 'ok' });
      expect(row!.lastError).toContain('deadline');
      await expect.poll(staleness, { timeout: 5_000, interval: 100 }).toBe(false);
    } finally {
      await scheduled.stop();
      await otherProcess.$client.end();
    }
  });

  it('aborts a run at once when its lock connection dies (the lock went with the session), not at its deadline', async () => {
    let started!: () => void;
    const runStarted = new Promise<void>((resolve) => (started = resolve));
    const job: PeriodicJob = {
      name: 'lock-lost-test',
      intervalMs: 1000,
      deadlineMs: 30_000,
      run: ({ signal }) =>
        new Promise<void>((_, reject) => {
          started();
          signal!.addEventListener('abort', () => reject(signal!.reason as Error), { once: true });
        }),
    };
    const db = createDatabase(process.env.DATABASE_URL!, 2);
    try {
      const run = runJobExclusively(job, { db, clock: systemClock, log });
      await runStarted;
      // As a killed primary does: the session holding the lock ends under the run.
      await getDb().execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'SELECT pg_try_advisory_lock%'`);
      const lostAt = Date.now();
      await expect(run).rejects.toBeInstanceOf(JobLockLost);
      expect(Date.now() - lostAt).toBeLessThan(2_000);
      const [row] = await getDb().select().from(jobRuns).where(eq(jobRuns.name, job.name));
      expect(row).toMatchObject({ lastOutcome: 'failed' });
      expect(row!.lastError).toMatch(/lock connection was lost/);
    } finally {
      await db.$client.end();
    }
  });

  it('survives the database dying under a run: the run fails, nothing reaches the process, and the job runs again once it is back', async () => {
    const { startTcpProxy } = await import('../../test/tcp-proxy');
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const db = createDatabase(proxy.url(process.env.DATABASE_URL!), 4);
    let runs = 0;
    let succeeded = 0;
    const job: PeriodicJob = {
      name: 'outage-test',
      intervalMs: 50,
      async run({ db: jobDb }) {
        runs += 1;
        await jobDb.execute('SELECT pg_sleep(0.05)');
        succeeded += 1;
      },
    };
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    const lines: string[] = [];
    const scheduled = schedulePeriodicJobs([job], { db, clock: systemClock, log: (line) => lines.push(line) });
    try {
      await expect.poll(() => succeeded, { timeout: 10_000, interval: 20 }).toBeGreaterThan(2);
      proxy.cut('refuse'); // mid-run: the lock connection and the run's own connection die
      const runsAtCut = runs;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(runs - runsAtCut).toBeLessThan(5); // nothing ran while it was down (attempts fail at the lock)
      const succeededBefore = succeeded;
      proxy.restore();
      const restoredAt = Date.now();
      await expect.poll(() => succeeded, { timeout: 10_000, interval: 20 }).toBeGreaterThan(succeededBefore);
      expect(Date.now() - restoredAt).toBeLessThan(2_000);
      expect(uncaught).toEqual([]);
      expect(lines.join('\n')).not.toMatch(/SELECT|params:/); // no SQL text in the log
    } finally {
      process.off('uncaughtException', onUncaught);
      await scheduled.stop();
      await db.$client.end();
      await proxy.close();
    }
  });
});

