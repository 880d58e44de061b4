import type { Database } from '../db/client';
import { chainWatcherHealth, jobsHealth } from './health';

/**
 * What the service itself is not doing: a periodic job without success for its stale period (hung, failing, or run by
 * no process) and a chain watcher behind the chain. Such items head the attention list while they last and leave it
 * on their own once the job succeeds or the watcher catches up; there is nothing to dismiss.
 */
export type ServiceProblem =
  | { kind: 'stale_job'; job: string; lastSuccessAt: Date | null; lastError: string | null; staleAfterMs: number }
  | { kind: 'watcher_behind'; lagMs: number; maxLagMs: number; cursorAt: Date };

export async function listServiceProblems(db: Database, now: Date): Promise<ServiceProblem[]> {
  const [jobs, chain] = await Promise.all([jobsHealth(db, now), chainWatcherHealth(db, now)]);
  const problems: ServiceProblem[] = jobs
    .filter((job) => job.stale)
    .map((job) => ({ kind: 'stale_job', job: job.name, lastSuccessAt: job.run?.lastSuccessAt ?? null, lastError: job.run?.lastError ?? null, staleAfterMs: job.staleAfterMs ?? 0 }));
  if (chain.behind && chain.lagMs !== null && chain.cursorAt) {
    problems.push({ kind: 'watcher_behind', lagMs: chain.lagMs, maxLagMs: chain.maxLagMs, cursorAt: chain.cursorAt });
  }
  return problems;
}
