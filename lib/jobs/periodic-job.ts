import type pg from 'pg';
import type { Database } from '../db/client';
import type { Clock } from '../clock';
import { describeFailure } from '../db/database-failure';
import { recordJobRun } from './record-job-run';
import { jobDeadlineMs } from './job-deadline';
import { metrics } from '../observability/metrics';

// lib/jobs/ says what a periodic job is and how one runs; the folders that define jobs (the channels, reconciliation,
// security) import it, and lib/workers/, which lists and starts them all, sits above them.

export interface JobContext {
  db: Database;
  clock: Clock;
  log: (line: string) => void;
  /** Aborted when the run passes its deadline: a job hands it to its outbound calls so that they stop too. */
  signal?: AbortSignal;
}

/** Background work that runs every `intervalMs` (pollers, the chain watcher, expiry). */
export interface PeriodicJob {
  /** Also the advisory-lock key: one process at a time runs a job, however many workers are started. */
  name: string;
  intervalMs: number;
  /** How long one run may take before it is abandoned (default: derived from the interval, see job-deadline.ts). */
  deadlineMs?: number;
  run(context: JobContext): Promise<void>;
}

/** A run that passed its deadline: abandoned, its lock released, recorded as a failure. */
export class JobDeadlineExceeded extends Error {
  constructor(name: string, deadlineMs: number) {
    super(`run did not finish within its deadline of ${deadlineMs / 1000} s; abandoned and its lock released`);
    this.name = 'JobDeadlineExceeded';
  }
}

/** The run's lock connection died: the lock went with the session, so the run is aborted. */
export class JobLockLost extends Error {
  constructor(name: string, cause: Error) {
    super(`job ${name}: its lock connection was lost (${cause.message}); the run is aborted, as another worker may now hold the lock`);
    this.name = 'JobLockLost';
  }
}

function lockKey(name: string): number {
  let hash = 0;
  for (const char of `periodic-job:${name}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Resolves with the work's outcome, or rejects once the deadline passes (the work itself is left to settle alone). */
function withinDeadline(work: Promise<void>, deadlineMs: number, onDeadline: () => Error): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onDeadline()), deadlineMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Runs the job once if no other process is running it now (pg_try_advisory_lock on a dedicated connection), and
 * records the run (success or failure) in job_runs for the operator's health page. Returns false when another
 * process held it.
 *
 * A run has a deadline: past it the job's signal is aborted and its lock connection destroyed, so the session's
 * advisory lock is released by the server and the next run (here or in another worker) can take it. A connection that
 * dies meanwhile (the database restarting, the primary killed in a failover) aborts the run's signal at once, since the
 * lock died with it, and fails the run; it never reaches the process-wide error handler.
 */
export async function runJobExclusively(job: PeriodicJob, context: JobContext): Promise<boolean> {
  const client: pg.PoolClient = await context.db.$client.connect();
  const abort = new AbortController();
  let connectionError: Error | undefined;
  // The lock is the session's: once its connection is lost (the primary killed, a failover) another worker may take
  // it on the new primary, so the run is told to stop at once rather than at its deadline.
  const onConnectionError = (error: Error) => {
    connectionError = error;
    abort.abort(new JobLockLost(job.name, error));
  };
  client.on('error', onConnectionError);
  /** Set when the connection must be destroyed rather than returned to the pool (with it goes the lock). */
  let destroy: Error | undefined;
  let locked = false;
  try {
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [lockKey(job.name)]);
      locked = rows[0]?.locked === true;
    } catch (error) {
      destroy = asError(error);
      throw error;
    }
    if (!locked) return false;
    const startedAt = new Date();
    const deadlineMs = jobDeadlineMs(job);
    try {
      await withinDeadline(job.run({ ...context, signal: abort.signal }), deadlineMs, () => new JobDeadlineExceeded(job.name, deadlineMs));
    } catch (error) {
      if (error instanceof JobDeadlineExceeded) {
        abort.abort(error);
        destroy = error; // ends the session: the server releases the advisory lock with it
      }
      countJobRun(job.name, 'failed', startedAt);
      await recordRun(context, { name: job.name, startedAt, finishedAt: new Date(), error });
      throw error;
    }
    countJobRun(job.name, 'ok', startedAt);
    await recordRun(context, { name: job.name, startedAt, finishedAt: new Date() });
    return true;
  } finally {
    destroy ??= connectionError;
    if (locked && !destroy) {
      await client.query('SELECT pg_advisory_unlock($1)', [lockKey(job.name)]).catch((error: unknown) => (destroy = asError(error)));
    }
    client.off('error', onConnectionError);
    if (destroy) client.on('error', () => undefined); // a late error of the destroyed connection must not escape either
    client.release(destroy);
  }
}

function countJobRun(name: string, outcome: 'ok' | 'failed', startedAt: Date): void {
  const { jobRuns, jobDuration } = metrics();
  jobRuns.inc({ job: name, outcome });
  jobDuration.observe({ job: name }, (Date.now() - startedAt.getTime()) / 1000);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** A failure to record the run (the database is down) must not hide the run's own outcome: it is logged only. */
async function recordRun(context: { db: Database; log: (line: string) => void }, outcome: Parameters<typeof recordJobRun>[1]): Promise<void> {
  try {
    await recordJobRun(context.db, outcome);
  } catch (error) {
    context.log(`job ${outcome.name}: could not record the run: ${describeFailure(error)}`);
  }
}

/** How long a shutdown waits for job runs in progress (a process manager's stop timeout is usually 15–30 s). */
const STOP_GRACE_MS = 10_000;

/**
 * Schedules jobs until stopped. Every run settles (a deadline bounds it, a
 * connection timeout bounds getting its lock), so each job is always rescheduled.
 */
export function schedulePeriodicJobs(jobs: readonly PeriodicJob[], context: JobContext) {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const lastRun = new Map<string, Date>();
  const lastFailure = new Map<string, { message: string; loggedAt: number; repeats: number }>();

  /** A job failing the same way every tick (an unreachable upstream) is logged once a minute, not every tick. */
  function reportFailure(job: PeriodicJob, error: unknown) {
    const message = describeFailure(error);
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
          if (lastFailure.delete(job.name)) context.log(`job ${job.name}: running again`);
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
    /** Schedules nothing more and waits for runs in progress, at most `graceMs`: a hung run does not hold up a shutdown. */
    async stop(graceMs = STOP_GRACE_MS) {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
      clearTimeout(grace);
    },
  };
}
