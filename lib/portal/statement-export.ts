import { setImmediate as nextTurn } from 'node:timers/promises';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database } from '../db/client';
import * as schema from '../db/schema';
import { merchantStatement, type StatementInput } from './merchant-statement';

/**
 * A statement export (GET /portal/statement) runs one at a time per merchant, on every web node at once: the export
 * holds PostgreSQL's advisory lock (STATEMENT_LOCK_CLASS, merchant id) on a connection of its own and reads its pages
 * on it, so a merchant's second download while the first still streams is told to wait; the lock goes with the
 * connection if the process dies. A node runs at most STATEMENT_EXPORTS_AT_ONCE exports (each holds one of the pool's
 * connections): past that, the next merchant is told to wait too. Between pages the export lets every other request
 * run (the page's rows are formatted in one go, a few milliseconds), so an export never holds the event loop.
 */
const STATEMENT_LOCK_CLASS = 0x53544d54; // 'STMT'
/** At most this many exports stream from one node at a time (of its DATABASE_POOL_SIZE connections, 20 by default). */
export const STATEMENT_EXPORTS_AT_ONCE = 4;
/** An export that has not finished by then is cut (a client that stopped reading must not hold the lock for ever). */
export const STATEMENT_EXPORT_DEADLINE_MS = 10 * 60_000;

let running = 0;

export type StatementExport =
  | { started: true; chunks: AsyncGenerator<string> }
  | { started: false; reason: 'merchant_busy' | 'node_busy' };

/** The lock and the connection, given back exactly once however the export ends (done, cancelled, failed, cut). */
function releaserOf(client: pg.PoolClient, merchantId: number): (error?: Error) => Promise<void> {
  let released = false;
  return async (error) => {
    if (released) return;
    released = true;
    running -= 1;
    const unlocked = await client
      .query('SELECT pg_advisory_unlock($1, $2)', [STATEMENT_LOCK_CLASS, merchantId])
      .then(() => true)
      .catch(() => false);
    // A connection that could not unlock is ended, and the server frees the lock with the session.
    client.release(error ?? (unlocked ? undefined : new Error('statement export: unlock failed')));
  };
}

async function* exportChunks(client: pg.PoolClient, input: StatementInput, release: (error?: Error) => Promise<void>): AsyncGenerator<string> {
  const cut = new Error(`statement export of merchant ${input.merchantId} cut after ${STATEMENT_EXPORT_DEADLINE_MS / 60_000} min`);
  let pastDeadline = false;
  // Also when the reader stopped reading without going away: the lock and the connection are given back then.
  const deadline = setTimeout(() => {
    pastDeadline = true;
    void release(cut);
  }, STATEMENT_EXPORT_DEADLINE_MS);
  deadline.unref();
  const onItsConnection = drizzle(client, { schema }) as unknown as Database;
  try {
    for await (const chunk of merchantStatement(onItsConnection, input)) {
      if (pastDeadline) throw cut;
      yield chunk;
      await nextTurn(); // other requests' turn before the next page is read and formatted
    }
    await release();
  } catch (error) {
    await release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    clearTimeout(deadline);
    await release(); // the reader stopped early (the download was cancelled)
  }
}

/**
 * Starts the merchant's export, or says why it cannot start now: another export of the same merchant is running
 * (on any node), or this node already runs STATEMENT_EXPORTS_AT_ONCE.
 */
export async function startStatementExport(db: Database, input: StatementInput): Promise<StatementExport> {
  if (running >= STATEMENT_EXPORTS_AT_ONCE) return { started: false, reason: 'node_busy' };
  running += 1;
  let client: pg.PoolClient;
  try {
    client = await db.$client.connect();
  } catch (error) {
    running -= 1;
    throw error;
  }
  const release = releaserOf(client, input.merchantId);
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [STATEMENT_LOCK_CLASS, input.merchantId]);
    if (!rows[0]?.locked) {
      running -= 1;
      client.release();
      return { started: false, reason: 'merchant_busy' };
    }
  } catch (error) {
    await release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  return { started: true, chunks: exportChunks(client, input, release) };
}
