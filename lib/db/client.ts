import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { clientClassFor } from './primary-client';
import { poolSettings } from './pool-settings';
import { closeConnectionsThatMetReadOnly } from './read-only-connections';
import { keepConnectionsAfterRefusedStatements } from './statement-error-pool';
import * as schema from './schema';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

// node-postgres returns int8 as text; amounts are read as bigint through Drizzle, counts as numbers where safe.
const globalForDb = globalThis as unknown as { __paymentDb?: { url: string; db: Database } };

/** Connections this process's pools have opened (read by the metrics when scraped). */
let connectionsOpened = 0;

export function databaseConnectionsOpened(): number {
  return connectionsOpened;
}

/**
 * A pool on DATABASE_URL. With several hosts (libpq's host1:port1,host2:port2 form) each new connection is opened on
 * the host the primary locator names (primary-client.ts); a plain URL goes to node-postgres as it is, with no probe.
 */
export function createDatabase(url: string, poolSize?: number): Database {
  const settings = poolSettings();
  const pool = new pg.Pool({
    connectionString: url,
    Client: clientClassFor(url) as unknown as pg.PoolConfig['Client'],
    max: poolSize ?? settings.max,
    connectionTimeoutMillis: settings.connectionTimeoutMillis,
    statement_timeout: settings.statementTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    query_timeout: settings.queryTimeoutMs,
    keepAlive: true,
  });
  keepConnectionsAfterRefusedStatements(pool);
  closeConnectionsThatMetReadOnly(pool);
  pool.on('error', () => undefined); // an idle connection that dies is dropped and replaced by the pool; never crash the process
  // A connection that dies while checked out (between a transaction's statements) emits 'error' with no listener of
  // the pool's: without one of its own that would end the process. The statement in flight fails on its own.
  pool.on('connect', (client) => {
    connectionsOpened += 1;
    client.on('error', () => undefined);
  });
  return drizzle(pool, { schema }) as Database;
}

/** The process-wide database, on DATABASE_URL (entry points set it, starting the embedded server when needed). */
export function getDb(): Database {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start the service with `npm run dev` or `npm start`');
  const cached = globalForDb.__paymentDb;
  if (cached && cached.url === url) return cached.db;
  const db = createDatabase(url);
  globalForDb.__paymentDb = { url, db };
  return db;
}

export async function closeDb(): Promise<void> {
  const cached = globalForDb.__paymentDb;
  globalForDb.__paymentDb = undefined;
  await cached?.db.$client.end();
}
