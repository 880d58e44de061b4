import type { Database } from '../db/client';
import type { Clock } from '../clock';
import { recordJobRun } from './record-job-run';

/** Background work that runs every `intervalMs` (pollers, the chain watcher, expiry). */
export interface PeriodicJob {
  /** Also the advisory-lock key: one process at a time runs a job, however many workers are started. */
  name: string;
  intervalMs: number;
  run(context: { db: Database; clock: Clock; log: (line: string) => void }): Promise<void>;
}

function lockKey(name: string): number {
  let hash = 0;
  for (const char of `periodic-job:${name}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/**
 * Runs the job once if no other process is running it now (pg_try_advisory_lock on a dedicated connection), and
 * records the run (success or failure) in job_runs for the operator's health page. Returns false when another
 * process held it.
 */
export async function runJobExclusively(job: PeriodicJob, context: { db: Database; clock: Clock; log: (line: string) => void }): Promise<boolean> {
  const client = await context.db.$client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [lockKey(job.name)]);
    if (!rows[0]?.locked) return false;
    const startedAt = new Date();
    try {
      await job.run(context);
      await recordRun(context, { name: job.name, startedAt, finishedAt: new Date() });
    } catch (error) {
      await recordRun(context, { name: job.name, startedAt, finishedAt: new Date(), error });
      throw error;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lockKey(job.name)]);
    }
    return true;
  } finally {
    client.release();
  }
}

/** A failure to record the run (the database is down) must not hide the run's own outcome: it is logged only. */
async function recordRun(context: { db: Database; log: (line: string) => void }, outcome: Parameters<typeof recordJobRun>[1]): Promise<void> {
  try {
    await recordJobRun(context.db, outcome);
  } catch (error) {
    context.log(`job ${outcome.name}: could not record the run: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Schedules jobs until stopped; `stop()` waits for runs in progress. */
export function schedulePeriodicJobs(jobs: readonly PeriodicJob[], context: { db: Database; clock: Clock; log: (line: string) => void }) {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const lastRun = new Map<string, Date>();
  const lastFailure = new Map<string, { message: string; loggedAt: number; repeats: number }>();

  /** A job failing the same way every tick (an unreachable upstream) is logged once a minute, not every tick. */
  function reportFailure(job: PeriodicJob, error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    const now = Date.now();
    const previous = lastFailure.get(job.name);
    if (previous && previous.message === message && now - previous.loggedAt < 60_000) {
      previous.repeats += 1;
      return;
    }
    const repeats = previous?.message === message && previous.repeats > 0 ? ` (and ${previous.repeats} more time(s) since the last report)` : '';
    context.log(`job ${job.name} failed: ${message}${repeats}`);
    lastFailure.set(job.name, { message, loggedAt: now, repeats: 0 });
  }

  function plan(job: PeriodicJob, delay: number) {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = runJobExclusively(job, context)
        .then((ran) => {
          if (!ran) return;
          lastRun.set(job.name, context.clock.now());
          lastFailure.delete(job.name);
        })
        .catch((error: unknown) => reportFailure(job, error))
        .finally(() => {
          running.delete(run);
          plan(job, job.intervalMs);
        });
      running.add(run);
    }, delay);
    timers.add(timer);
  }

  for (const job of jobs) plan(job, 0);
  return {
    lastRun,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
  };
}
