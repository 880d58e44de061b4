import { notificationFieldsOf } from '../lib/channels';
import { closeDb, createDatabase, getDb, type Database } from '../lib/db/client';
import { schedulePeriodicJobs } from '../lib/jobs/periodic-job';
import { systemClock } from '../lib/clock';
import { applyMigrations } from '../lib/db/migrate';
import { NotificationWorker } from '../lib/notifications/notification-worker';
import { startMerchantReceiver } from './beds/merchant-receiver';
import { failoverProbeJob, type ProbeRun } from './failover-job-probe';
import { aMerchant, receivingAddresses } from './factories';
import { startTestApp, type TestApp } from './open-api-client';
import { startStandbyPair, type StandbyPair } from './standby-pair';

/** How the background work runs during the drill: short enough that a switch of a few seconds shows every rule. */
export interface FailoverBedSettings {
  /** The notification lease: a delivery whose outcome died with the primary is claimed again once it expires. */
  leaseMs: number;
  /** Two workers, as two processes, run the probe job under one advisory lock. */
  job: { intervalMs: number; workMs: number; deadlineMs: number };
}

const STOP_WITHIN_MS = 5_000;

export const DRILL_SETTINGS: FailoverBedSettings = { leaseMs: 2_000, job: { intervalMs: 200, workMs: 3_000, deadlineMs: 20_000 } };

export interface FailoverBed {
  pair: StandbyPair;
  app: TestApp;
  merchant: Awaited<ReturnType<typeof aMerchant>>;
  receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
  worker: NotificationWorker;
  workerLog: string[];
  jobRuns: ProbeRun[];
  close(): Promise<void>;
}

/**
 * Everything a failover drill runs against: a primary and its synchronous standby, the service's open API and its
 * notification worker on the multi-host URL (process.env.DATABASE_URL is set to it, as an operator sets it), a
 * merchant's receiver for the notifications, and the probe job scheduled by two workers with pools of their own.
 * close() stops all of it and removes the servers' directory, and may be called after a failed start.
 */
export async function startFailoverBed(settings: FailoverBedSettings): Promise<FailoverBed> {
  const stops: Array<() => Promise<unknown>> = [];
  const close = async () => {
    // Each stop has a deadline: one that hangs (a pool waiting on a client of the dead host) must not keep the servers running.
    for (const stop of stops.reverse().splice(0)) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((resolve) => (timer = setTimeout(() => resolve(console.warn(`failover bed: a stop took over ${STOP_WITHIN_MS} ms: ${String(stop)}`)), STOP_WITHIN_MS)));
      await Promise.race([stop().catch(() => undefined), late]);
      clearTimeout(timer);
    }
  };
  // Thousands of deliveries are logged at info; the drill's figures would be lost among them.
  process.env.LOG_LEVEL ??= 'warn';
  try {
    const pair = await startStandbyPair();
    stops.push(() => pair.close());
    await applyMigrations(pair.url); // through the locator: on the primary
    await closeDb();
    const previousUrl = process.env.DATABASE_URL;
    process.env.DATABASE_URL = pair.url; // the service's pool (getDb) is on both hosts from now on
    stops.push(async () => {
      await closeDb();
      if (previousUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previousUrl;
    });
    const merchant = await aMerchant({ wholePool: true });
    await receivingAddresses(3);
    const receiver = await startMerchantReceiver(merchant.appSecret);
    stops.push(() => receiver.close());
    const app = await startTestApp();
    stops.push(() => app.close());
    const workerLog: string[] = [];
    const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, listenUrl: pair.url, leaseMs: settings.leaseMs, log: (line) => workerLog.push(line) });
    await worker.start();
    stops.push(() => worker.stop());
    const jobRuns: ProbeRun[] = [];
    for (const index of [1, 2]) {
      const db: Database = createDatabase(pair.url, 3);
      stops.push(() => db.$client.end());
      const scheduled = schedulePeriodicJobs([failoverProbeJob(index, jobRuns, settings.job)], { db, clock: systemClock, log: (line) => workerLog.push(line) });
      stops.push(() => scheduled.stop(1_000));
    }
    return { pair, app, merchant, receiver, worker, workerLog, jobRuns, close };
  } catch (error) {
    await close();
    throw error;
  }
}
