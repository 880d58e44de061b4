import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobRuns, type JobRunRow } from '../db/schema';
import { CHANNELS } from '../channels';
import { PERIODIC_JOBS } from '../workers/periodic-jobs';
import type { PoolPressure } from './pool-pressure';

/**
 * Periodic jobs the health page always lists, run or not: every one the service runs (lib/workers/periodic-jobs.ts,
 * each channel's from the registry). A job that has run but is not named here is listed too (job_runs holds every name).
 */
export const KNOWN_JOB_NAMES: readonly string[] = [...new Set(PERIODIC_JOBS.map((job) => job.name))];

export interface JobHealth {
  name: string;
  /** Undefined: the job has never run (on any process sharing this database). */
  run?: Pick<JobRunRow, 'lastStartedAt' | 'lastFinishedAt' | 'lastDurationMs' | 'lastOutcome' | 'lastSuccessAt' | 'lastError' | 'lastErrorAt' | 'runCount' | 'failureCount'>;
}

export interface HealthSnapshot {
  at: Date;
  chain: { cursorAt: Date | null; cursorUpdatedAt: Date | null; lagMs: number | null };
  notifications: { pending: number; dueNow: number; oldestDueAt: Date | null; failed: number };
  /** The shared receiving pools' pressure, per network and amount band (the channels that have one). */
  pools: PoolPressure[];
  jobs: JobHealth[];
}

/** The cursor of the chain watcher the health page shows: the first channel in the registry that has one. */
async function watcherCursor(db: Database) {
  const watched = CHANNELS.find((channel) => channel.watcherHealth);
  return watched?.watcherHealth?.cursor(db);
}

/**
 * What the operator's health page shows: the chain watcher's cursor and lag, the notification queue, the receiving
 * pools' pressure, each job's last run.
 */
export async function healthSnapshot(db: Database, now: Date, jobNames: readonly string[] = KNOWN_JOB_NAMES): Promise<HealthSnapshot> {
  const cursor = await watcherCursor(db);
  const { rows: queue } = await db.execute<{ pending: number; due_now: number; oldest_due: string | null; failed: number }>(sql`
    SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
           count(*) FILTER (WHERE status = 'pending' AND next_attempt_at <= ${now})::int AS due_now,
           min(next_attempt_at) FILTER (WHERE status = 'pending')::text AS oldest_due,
           count(*) FILTER (WHERE status = 'failed')::int AS failed
    FROM notifications WHERE status IN ('pending', 'failed')`);
  const runs = await db.select().from(jobRuns);
  const pools = (await Promise.all(CHANNELS.map((channel) => channel.poolPressure?.(db) ?? []))).flat();
  const names = [...new Set([...jobNames, ...runs.map((run) => run.name)])];
  const cursorAt = cursor?.blockTime ?? null;
  const row = queue[0];
  return {
    at: now,
    chain: { cursorAt, cursorUpdatedAt: cursor?.updatedAt ?? null, lagMs: cursorAt ? Math.max(0, now.getTime() - cursorAt.getTime()) : null },
    notifications: {
      pending: Number(row?.pending ?? 0),
      dueNow: Number(row?.due_now ?? 0),
      oldestDueAt: row?.oldest_due ? new Date(row.oldest_due) : null,
      failed: Number(row?.failed ?? 0),
    },
    pools,
    jobs: names.map((name) => {
      const run = runs.find((candidate) => candidate.name === name);
      return run ? { name, run } : { name };
    }),
  };
}
