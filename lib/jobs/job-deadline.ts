import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';

/**
 * How long a run may take, and how long a job may go without success before health says so. Both follow the job's
 * interval: a watcher that runs every 3 s is late long before an hourly clean-up is.
 *
 * - Deadline: JOB_DEADLINE_INTERVALS (10) intervals, at least 60 s and at most 15 min, unless the job sets its own.
 * - Stale: no success for 5 intervals, and at least half the deadline, so that a run that hangs turns health red
 *   before its deadline abandons it.
 */
const MIN_DEADLINE_MS = 60_000;
const MAX_DEADLINE_MS = 15 * 60_000;
const STALE_INTERVALS = 5;

export function deadlineIntervals(env: NodeJS.ProcessEnv = process.env): number {
  const text = envSetting(env, 'JOB_DEADLINE_INTERVALS');
  if (text === undefined) return 10;
  if (!/^[1-9]\d{0,3}$/.test(text)) throw new StartupRefusal('JOB_DEADLINE_INTERVALS', `must be a whole number of job intervals from 1 to 9999, got ${JSON.stringify(text)}`);
  return Number(text);
}

export function jobDeadlineMs(job: { intervalMs: number; deadlineMs?: number }): number {
  if (job.deadlineMs !== undefined) return job.deadlineMs;
  return Math.min(MAX_DEADLINE_MS, Math.max(MIN_DEADLINE_MS, job.intervalMs * deadlineIntervals()));
}

export function jobStaleAfterMs(job: { intervalMs: number; deadlineMs?: number }): number {
  return Math.max(job.intervalMs * STALE_INTERVALS, jobDeadlineMs(job) / 2);
}
