import { sql } from 'drizzle-orm';
import type { PeriodicJob } from '../lib/jobs/periodic-job';

/** One run of the probe job: which worker ran it, when it held the lock, and whether it ended because it was aborted. */
export interface ProbeRun {
  worker: number;
  startedAt: number;
  /** When its read was answered and its work began (undefined before). */
  workingSince?: number;
  endedAt: number;
  aborted: boolean;
}

/**
 * An advisory-lock job as the chain watchers and pollers are (lib/jobs/periodic-job.ts), for the failover: each run
 * reads the database and then works for `workMs`, so that a run is likely in flight on the old primary when it is
 * killed. It stops when its signal is aborted, as the real jobs hand their signal to their outbound calls. Every run
 * is recorded with its worker, so that two runs at once (the old lock holder beside its successor) can be seen.
 */
export function failoverProbeJob(worker: number, runs: ProbeRun[], settings: { intervalMs: number; workMs: number; deadlineMs: number }): PeriodicJob {
  return {
    name: 'failover-probe',
    intervalMs: settings.intervalMs,
    deadlineMs: settings.deadlineMs,
    async run({ db, signal }) {
      const run: ProbeRun = { worker, startedAt: Date.now(), endedAt: Number.POSITIVE_INFINITY, aborted: false };
      runs.push(run);
      try {
        await db.execute(sql`SELECT 1`);
        run.workingSince = Date.now();
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, settings.workMs);
          signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            run.aborted = true;
            reject(signal.reason as Error);
          }, { once: true });
        });
      } finally {
        run.endedAt = Date.now();
      }
    },
  };
}

/** Pairs of runs that overlapped in time, in one worker or two: none may, the lock being held by one session at a time. */
export function overlappingRuns(runs: readonly ProbeRun[]): Array<[ProbeRun, ProbeRun]> {
  const pairs: Array<[ProbeRun, ProbeRun]> = [];
  for (const [index, first] of runs.entries()) {
    for (const second of runs.slice(index + 1)) {
      if (first.startedAt < second.endedAt && second.startedAt < first.endedAt) pairs.push([first, second]);
    }
  }
  return pairs;
}
