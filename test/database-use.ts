import { appendFileSync } from 'node:fs';
import pg from 'pg';

/**
 * Whether a test file used the database server: a connection its own process opened (to any database of the
 * server), or a transaction in the file's own database (which the services and CLIs it starts also use). Read at the
 * end of the file, once every session of its database has left (a backend's counts are in the server's statistics
 * when it has exited).
 */
const OPENED = Symbol.for('payment-order-service.test-connections-opened');
const counter = globalThis as typeof globalThis & { [OPENED]?: { count: number } };

/** Counts the connections this process opens from now on (once per process: every file of a worker shares pg). */
export function countConnections(): () => number {
  if (!counter[OPENED]) {
    const opened = { count: 0 };
    counter[OPENED] = opened;
    const connect = pg.Client.prototype.connect;
    pg.Client.prototype.connect = function countedConnect(this: pg.Client, ...args: unknown[]) {
      opened.count += 1;
      return (connect as (...rest: unknown[]) => unknown).apply(this, args);
    } as typeof connect;
  }
  const start = counter[OPENED].count;
  return () => counter[OPENED]!.count - start;
}

/** The transactions run in `databaseName` so far, as the server's statistics have them (0 when none). */
export async function transactionsIn(client: pg.Client, databaseName: string): Promise<number> {
  const { rows } = await client.query<{ transactions: string | null }>('SELECT xact_commit + xact_rollback AS transactions FROM pg_stat_database WHERE datname = $1', [databaseName]);
  return Number(rows[0]?.transactions ?? 0);
}

/** With TEST_DATABASE_USE_REPORT set, each file appends `{"file":…,"used":…}` there (a line each, to list the free ones). */
export function reportDatabaseUse(file: string, used: boolean): void {
  const report = process.env.TEST_DATABASE_USE_REPORT;
  if (report) appendFileSync(report, `${JSON.stringify({ file, used })}\n`);
}
