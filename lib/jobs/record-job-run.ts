import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobRuns } from '../db/schema';

/** Longest error message kept for the health page (an upstream's HTML error page must not fill the row). */
const ERROR_MAX_LENGTH = 1000;

export interface JobRunOutcome {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  /** Undefined when the run succeeded. */
  error?: unknown;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > ERROR_MAX_LENGTH ? `${message.slice(0, ERROR_MAX_LENGTH)}…` : message;
}

/** Upserts the job's row in job_runs: last run, last success, last error (kept after a later success), counts. */
export async function recordJobRun(db: Database, outcome: JobRunOutcome): Promise<void> {
  const failed = outcome.error !== undefined;
  const durationMs = Math.max(0, outcome.finishedAt.getTime() - outcome.startedAt.getTime());
  const error = failed ? errorText(outcome.error) : null;
  await db
    .insert(jobRuns)
    .values({
      name: outcome.name,
      lastStartedAt: outcome.startedAt,
      lastFinishedAt: outcome.finishedAt,
      lastDurationMs: durationMs,
      lastOutcome: failed ? 'failed' : 'ok',
      lastSuccessAt: failed ? null : outcome.finishedAt,
      lastError: error,
      lastErrorAt: failed ? outcome.finishedAt : null,
      runCount: 1,
      failureCount: failed ? 1 : 0,
    })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: {
        lastStartedAt: outcome.startedAt,
        lastFinishedAt: outcome.finishedAt,
        lastDurationMs: durationMs,
        lastOutcome: failed ? 'failed' : 'ok',
        lastSuccessAt: failed ? sql`${jobRuns.lastSuccessAt}` : outcome.finishedAt,
        lastError: failed ? error : sql`${jobRuns.lastError}`,
        lastErrorAt: failed ? outcome.finishedAt : sql`${jobRuns.lastErrorAt}`,
        runCount: sql`${jobRuns.runCount} + 1`,
        failureCount: failed ? sql`${jobRuns.failureCount} + 1` : sql`${jobRuns.failureCount}`,
      },
    });
}
