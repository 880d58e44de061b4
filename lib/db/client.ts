import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

// node-postgres returns int8 as text; amounts are read as bigint through Drizzle, counts as numbers where safe.
const globalForDb = globalThis as unknown as { __paymentDb?: { url: string; db: Database } };

export function createDatabase(url: string, poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 20)): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined); // idle-client errors are retried by the pool; never crash the process
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
