import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobRuns, type JobRunRow } from '../db/schema';
import { CHANNELS } from '../channels';
import { PERIODIC_JOBS } from '../workers/periodic-jobs';
import type { PeriodicJob } from '../jobs/periodic-job';
import { jobStaleAfterMs } from '../jobs/job-deadline';
import { chainWatcherMaxLagMs, isJobStale } from '../jobs/job-staleness';
import type { PoolPressure } from '../channels/pool-pressure';
import type { RequestBudget } from '../channels/request-budget';

/**
 * Periodic jobs the health page always lists, run or not: every one the service runs (lib/workers/periodic-jobs.ts,
 * each channel's from the registry). A job that has run but is not named here is listed too (job_runs holds every name).
 */
export const KNOWN_JOB_NAMES: readonly string[] = [...new Set(PERIODIC_JOBS.map((job) => job.name))];

export interface JobHealth {
  name: string;
  /** Undefined: the job has never run (on any process sharing this database). */
  run?: Pick<JobRunRow, 'lastStartedAt' | 'lastFinishedAt' | 'lastDurationMs' | 'lastOutcome' | 'lastSuccessAt' | 'lastError' | 'lastErrorAt' | 'runCount' | 'failureCount'>;
  /** No success for longer than the job's stale period (lib/jobs/job-staleness.ts): red, whatever its last outcome. */
  stale: boolean;
  /** That period, for the operator (undefined for a name no running job has). */
  staleAfterMs?: number;
}

export interface HealthSnapshot {
  at: Date;
  /**
   * `lagMs`: now − the final block the watcher has read through (its cursor when it has read no further); `behind`:
   * more than CHAIN_WATCHER_MAX_LAG_SECONDS (payments are credited late).
   */
  chain: { cursorAt: Date | null; cursorUpdatedAt: Date | null; lagMs: number | null; behind: boolean; maxLagMs: number };
  notifications: { pending: number; dueNow: number; oldestDueAt: Date | null; failed: number };
  /** The shared receiving pools' pressure, per network and amount band (the channels that have one). */
  pools: PoolPressure[];
  /** Each watched network's requests a day at the settings, against its provider quota (a warning when over). */
  budgets: RequestBudget[];
  jobs: JobHealth[];
}

/** The cursor of the chain watcher the health page shows: the first channel in the registry that has one. */
async function watcherCursor(db: Database) {
  const watched = CHANNELS.find((channel) => channel.watcherHealth);
  return watched?.watcherHealth?.cursor(db);
}

/** A job as health judges it: its name and the interval (and deadline) its stale period follows. */
type JudgedJob = Pick<PeriodicJob, 'name' | 'intervalMs' | 'deadlineMs'>;

/** The chain watcher's cursor and how far behind now it is (`behind`: past CHAIN_WATCHER_MAX_LAG_SECONDS). */
export async function chainWatcherHealth(db: Database, now: Date): Promise<HealthSnapshot['chain']> {
  const cursor = await watcherCursor(db);
  const cursorAt = cursor?.blockTime ?? null;
  // Behind what the watcher has read through: a quiet chain (no payment for an hour) is not a watcher behind it.
  const readAt = cursor?.readThrough && cursorAt && cursor.readThrough > cursorAt ? cursor.readThrough : cursorAt;
  const lagMs = readAt ? Math.max(0, now.getTime() - readAt.getTime()) : null;
  const maxLagMs = chainWatcherMaxLagMs();
  return { cursorAt, cursorUpdatedAt: cursor?.updatedAt ?? null, lagMs, behind: lagMs !== null && lagMs > maxLagMs, maxLagMs };
}

/** The settings' request budgets; none when a channel's settings are incomplete (its start refuses, and says why). */
function requestBudgets(): RequestBudget[] {
  return CHANNELS.flatMap((channel) => {
    try {
      return channel.requestBudgets?.() ?? [];
    } catch {
      return [];
    }
  });
}

/** Each job's last runs (job_runs) and whether it is stale; every job the service runs is listed, run or not. */
export async function jobsHealth(db: Database, now: Date, jobs: readonly JudgedJob[] = PERIODIC_JOBS): Promise<JobHealth[]> {
  const runs = await db.select().from(jobRuns);
  const names = [...new Set([...jobs.map((job) => job.name), ...runs.map((run) => run.name)])];
  return names.map((name) => {
    const run = runs.find((candidate) => candidate.name === name);
    const job = jobs.find((candidate) => candidate.name === name);
    const stale = job ? isJobStale(job, run, now) : false;
    const staleAfterMs = job ? jobStaleAfterMs(job) : undefined;
    return run ? { name, run, stale, staleAfterMs } : { name, stale, staleAfterMs };
  });
}

/**
 * What the operator's health page shows: the chain watcher's cursor and lag, the notification queue, the receiving
 * pools' pressure, each job's last run.
 */
export async function healthSnapshot(db: Database, now: Date, jobs: readonly JudgedJob[] = PERIODIC_JOBS): Promise<HealthSnapshot> {
  const chain = await chainWatcherHealth(db, now);
  const { rows: queue } = await db.execute<{ pending: number; due_now: number; oldest_due: string | null; failed: number }>(sql`
    SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
           count(*) FILTER (WHERE status = 'pending' AND next_attempt_at <= ${now})::int AS due_now,
           min(next_attempt_at) FILTER (WHERE status = 'pending')::text AS oldest_due,
           count(*) FILTER (WHERE status = 'failed')::int AS failed
    FROM notifications WHERE status IN ('pending', 'failed')`);
  const pools = (await Promise.all(CHANNELS.map((channel) => channel.poolPressure?.(db) ?? []))).flat();
  const row = queue[0];
  return {
    at: now,
    chain,
    notifications: {
      pending: Number(row?.pending ?? 0),
      dueNow: Number(row?.due_now ?? 0),
      oldestDueAt: row?.oldest_due ? new Date(row.oldest_due) : null,
      failed: Number(row?.failed ?? 0),
    },
    pools,
    budgets: requestBudgets(),
    jobs: await jobsHealth(db, now, jobs),
  };
}
