import type { Database } from '../db/client';
import { jobRuns } from '../db/schema';
import { readiness, type ProbeReply } from '../health/health-replies';
import { describeFailure } from '../db/database-failure';
import { isJobStale } from '../jobs/job-staleness';
import type { PeriodicJob } from '../jobs/periodic-job';

/** How long the worker's readiness waits for job_runs before counting the database as unreachable. */
const JOBS_READ_TIMEOUT_MS = 2_000;

/**
 * The worker's /readyz: the database answers and is migrated (as the web process's), and no periodic job is stale
 * (no success for its stale period, on any worker). 503 names what fails; it is for alerting and load balancers.
 * A supervisor restarts on liveness (/healthz) only: restarting does not bring back an upstream or a database.
 */
export async function workerReadiness(db: Database, jobs: readonly PeriodicJob[], now: Date): Promise<ProbeReply> {
  const base = await readiness(() => db.$client);
  if (base.status !== 200) return base;
  let stale: string[];
  try {
    const runs = await Promise.race([
      db.select({ name: jobRuns.name, lastSuccessAt: jobRuns.lastSuccessAt, failureCount: jobRuns.failureCount }).from(jobRuns),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${JOBS_READ_TIMEOUT_MS} ms`)), JOBS_READ_TIMEOUT_MS).unref()),
    ]);
    stale = jobs.filter((job) => isJobStale(job, runs.find((run) => run.name === job.name), now)).map((job) => job.name);
  } catch (error) {
    return { status: 503, body: { status: 'unavailable', failed: ['jobs'], checks: { ...base.body.checks as object, jobs: describeFailure(error) } } };
  }
  const checks = { ...(base.body.checks as object), jobs: stale.length === 0 ? 'ok' : `stale: ${stale.join(', ')}` };
  if (stale.length > 0) return { status: 503, body: { status: 'unavailable', failed: ['jobs'], checks } };
  return { status: 200, body: { status: 'ok', checks } };
}
