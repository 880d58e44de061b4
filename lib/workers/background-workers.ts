import type { Database } from '../db/client';
import { systemClock } from '../clock';
import { CHANNELS, notificationFieldsOf } from '../channels';
import { NotificationWorker } from '../notifications/notification-worker';
import { PERIODIC_JOBS } from './periodic-jobs';
import { schedulePeriodicJobs } from '../jobs/periodic-job';

export interface BackgroundWorkers {
  stop(): Promise<void>;
}

/** Everything that runs from the database in the background; in the web process by default, or `npm run worker`. */
export async function startBackgroundWorkers(db: Database, databaseUrl: string, log: (line: string) => void): Promise<BackgroundWorkers> {
  // Refuses to start (naming the setting) before anything runs, e.g. production without TRONGRID_API_KEY, or an EVM
  // chain enabled without its EVM_<CHAIN>_RPC_URLS.
  for (const channel of CHANNELS) for (const line of channel.describeStartup?.() ?? []) log(line);
  const notifier = new NotificationWorker({ db, channelFields: notificationFieldsOf, listenUrl: databaseUrl, log });
  await notifier.start();
  const jobs = schedulePeriodicJobs(PERIODIC_JOBS, { db, clock: systemClock, log });
  log(`workers: notification delivery running (${notifier.workerId}); jobs: ${PERIODIC_JOBS.map((job) => job.name).join(', ') || 'none'}`);
  return {
    async stop() {
      await jobs.stop();
      await notifier.stop();
    },
  };
}

export function workersEnabled(): boolean {
  return process.env.WORKERS !== 'off';
}
