import type { Database } from '../db/client';
import { NotificationWorker } from '../notifications/notification-worker';

export interface BackgroundWorkers {
  stop(): Promise<void>;
}

/** Everything that runs from the database in the background; in the web process by default, or `npm run worker`. */
export async function startBackgroundWorkers(db: Database, databaseUrl: string, log: (line: string) => void): Promise<BackgroundWorkers> {
  const notifier = new NotificationWorker({ db, listenUrl: databaseUrl, log });
  await notifier.start();
  log(`workers: notification delivery running (${notifier.workerId})`);
  return {
    async stop() {
      await notifier.stop();
    },
  };
}

export function workersEnabled(): boolean {
  return process.env.WORKERS !== 'off';
}
