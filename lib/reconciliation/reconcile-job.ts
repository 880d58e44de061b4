import { and, eq } from 'drizzle-orm';
import { reconciliationRuns } from '../db/schema';
import type { PeriodicJob } from '../jobs/periodic-job';
import type { ReconciledChannels } from './bill-source';
import { previousBeijingDay } from './beijing-day';
import { reconcileDay } from './reconcile-day';

/**
 * The daily reconciliation as a background job: every quarter of an hour it reconciles yesterday (Beijing time) for
 * each scope not yet reconciled completely, so a bill published late (Alipay and WeChat publish around 9–10 am) is
 * read when it appears, and a completed day is not read again (`npm run admin -- reconcile --date` repeats one).
 * A bill not made yet (unavailable) is no failure: it is asked for again when its source advises (WeChat Pay: after
 * 10:00, every 30 minutes), else at the next run. A run that failed fails the job run, so health and the attention
 * list report it until a run succeeds. The channels are the registry's, handed in by the worker's composition.
 */
export const reconciliationJob = (channels: ReconciledChannels): PeriodicJob => ({
  name: 'reconciliation',
  intervalMs: 15 * 60_000,
  // A day of several hundred thousand rows takes minutes; the bill's download alone may take one.
  deadlineMs: 30 * 60_000,
  async run({ db, clock, log, signal }) {
    const day = previousBeijingDay(clock.now());
    const outcomes = await reconcileDay(db, channels, {
      day,
      now: () => clock.now(),
      signal,
      async skip(channel, scope, source) {
        const [run] = await db
          .select({ status: reconciliationRuns.status, finishedAt: reconciliationRuns.finishedAt })
          .from(reconciliationRuns)
          .where(and(eq(reconciliationRuns.day, day), eq(reconciliationRuns.channel, channel), eq(reconciliationRuns.scope, scope)))
          .limit(1);
        if (run?.status === 'complete') return true;
        if (run?.status === 'unavailable' && run.finishedAt && source.nextAttemptAt) return clock.now().getTime() < source.nextAttemptAt(day, run.finishedAt).getTime();
        return false;
      },
    });
    for (const outcome of outcomes) {
      if (outcome.status === 'complete') log(`reconciliation ${day} ${outcome.channel} ${outcome.scope}: ${outcome.totals!.findingCount} finding(s)`);
    }
    const failed = outcomes.filter((outcome) => outcome.status === 'failed');
    if (failed.length > 0) throw new Error(`reconciliation of ${day} failed: ${failed.map((outcome) => `${outcome.channel} ${outcome.scope}: ${outcome.detail}`).join('; ')}`);
  },
});
