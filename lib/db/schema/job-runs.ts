import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The last run of each periodic job (lib/jobs/periodic-job.ts), one row per job name, updated on every run by
 * whichever process ran it: the operator's health page reads it whatever process runs the workers.
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }).notNull(),
  lastDurationMs: integer('last_duration_ms').notNull(),
  /** 'ok' or 'failed'. */
  lastOutcome: text('last_outcome').notNull(),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  /** The latest failure's message and time; kept after a later success so the operator sees what last went wrong. */
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  runCount: integer('run_count').notNull().default(0),
  failureCount: integer('failure_count').notNull().default(0),
});

export type JobRunRow = typeof jobRuns.$inferSelect;
