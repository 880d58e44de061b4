import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';
import { jobStaleAfterMs } from './job-deadline';

/** What job_runs says of a job's last runs (any process sharing the database). */
export interface RecordedRuns {
  lastSuccessAt: Date | null;
  failureCount: number;
}

/**
 * A job is stale when it has not succeeded for its stale period (lib/jobs/job-deadline.ts): its runs hang or fail,
 * or no process runs it. Health turns red, the worker's /readyz fails and the attention list names it. A job that has
 * never run is not judged (a service that has just started).
 */
export function isJobStale(job: { intervalMs: number; deadlineMs?: number }, runs: RecordedRuns | undefined, now: Date): boolean {
  if (!runs) return false;
  if (!runs.lastSuccessAt) return runs.failureCount > 0;
  return now.getTime() - runs.lastSuccessAt.getTime() > jobStaleAfterMs(job);
}

/** How far a chain watcher's cursor may fall behind the chain before health says so (CHAIN_WATCHER_MAX_LAG_SECONDS, 300). */
export function chainWatcherMaxLagMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = envSetting(env, 'CHAIN_WATCHER_MAX_LAG_SECONDS');
  if (text === undefined) return 300_000;
  if (!/^[1-9]\d{0,6}$/.test(text)) throw new StartupRefusal('CHAIN_WATCHER_MAX_LAG_SECONDS', `must be a whole number of seconds, got ${JSON.stringify(text)}`);
  return Number(text) * 1000;
}
