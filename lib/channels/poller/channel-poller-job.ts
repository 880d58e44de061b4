import type { Database } from '../../db/client';
import type { PeriodicJob } from '../../jobs/periodic-job';
import type { PollSummary } from './poll-concurrently';

/** The poll interval from `envName` (at least a second); anything else configured falls back to `defaultMs`. */
export function pollIntervalMs(envName: string, defaultMs: number): number {
  const configured = Number(process.env[envName] ?? defaultMs);
  return Number.isFinite(configured) && configured >= 1_000 ? configured : defaultMs;
}

/**
 * A channel's poller as a periodic job: a channel that is not configured is off (its submit says so to merchants)
 * and the run does nothing; otherwise it polls and logs the summary when anything happened.
 */
export function channelPollerJob<Config>(poller: {
  /** Log prefix and job name stem: '<channel>' → job '<channel>-poller'. */
  channel: string;
  interval: { envName: string; defaultMs: number };
  config: () => Config;
  notConfigured: abstract new (...args: never[]) => Error;
  poll: (db: Database, now: Date, options: { config: Config; log: (line: string) => void }) => Promise<PollSummary>;
  /** How the summary names the orders counted as 'failed'. */
  failedLabel: string;
}): PeriodicJob {
  return {
    name: `${poller.channel}-poller`,
    intervalMs: pollIntervalMs(poller.interval.envName, poller.interval.defaultMs),
    async run({ db, clock, log }) {
      let config: Config;
      try {
        config = poller.config();
      } catch (error) {
        if (error instanceof poller.notConfigured) return;
        throw error;
      }
      const summary = await poller.poll(db, clock.now(), { config, log });
      if (summary.paid + summary.closed + summary.failed > 0) {
        log(`${poller.channel}: ${summary.checked} pending order(s) checked, ${summary.paid} paid, ${summary.closed} closed, ${summary.failed} ${poller.failedLabel}`);
      }
    },
  };
}
