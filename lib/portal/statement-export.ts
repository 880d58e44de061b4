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
 * connections): past that, the next merchant is told to wait too. The exports of a node take turns page by page (inTurn),
 * and every other request runs between two turns, so exports never hold the event loop for more than one page's
 * formatting (a few milliseconds).
 */
const STATEMENT_LOCK_CLASS = 0x53544d54; // 'STMT'
/** At most this many exports stream from one node at a time (of its DATABASE_POOL_SIZE connections, 20 by default). */
export const STATEMENT_EXPORTS_AT_ONCE = 4;
/** An export that has not finished by then is cut (a client that stopped reading must not hold the lock for ever). */
export const STATEMENT_EXPORT_DEADLINE_MS = 10 * 60_000;

let running = 0;

/**
 * Exports take turns: one page (its query and its formatting) at a time on this node, whichever export it is for, and
 * every other request runs between two turns. Four exports then cost the open API no more than one page's work at a
 * time, instead of four pages' formatting and four queries at once.
 */
let lastTurn: Promise<unknown> = Promise.resolve();

function inTurn<T>(produce: () => Promise<T>): Promise<T> {
  const result = lastTurn.then(produce);
  lastTurn = result.then(nextTurn, nextTurn);
  return result;
}

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

async function* exportChunks(client: pg.PoolClient, input: StatementInput, release: (error?: Error) => Promise<void>, readsOn: Database | undefined): AsyncGenerator<string> {
  const cut = new Error(`statement export of merchant ${input.merchantId} cut after ${STATEMENT_EXPORT_DEADLINE_MS / 60_000} min`);
  let pastDeadline = false;
  // Also when the reader stopped reading without going away: the lock and the connection are given back then.
  const deadline = setTimeout(() => {
    pastDeadline = true;
    void release(cut);
  }, STATEMENT_EXPORT_DEADLINE_MS);
  deadline.unref();
  // On the lock's own connection, unless the pages are read elsewhere (the back office's replica): a server in
  // recovery cannot take an advisory lock, so the lock stays on the primary while the replica does the reading.
  const pages = merchantStatement(readsOn ?? (drizzle(client, { schema }) as unknown as Database), input);
  try {
    for (;;) {
      if (pastDeadline) throw cut; // before the connection, given back at the deadline, is asked for more
      const page = await inTurn(() => pages.next());
      if (page.done) break;
      yield page.value;
    }
    await release();
  } catch (error) {
    await release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    clearTimeout(deadline);
    await pages.return(undefined);
    await release(); // the reader stopped early (the download was cancelled)
  }
}

/**
 * Starts the merchant's export, or says why it cannot start now: another export of the same merchant is running
 * (on any node), or this node already runs STATEMENT_EXPORTS_AT_ONCE. The lock is taken on `db` (the primary);
 * `readsOn`, when given (the replica, lib/db/read-db.ts), reads the statement's pages.
 */
export async function startStatementExport(db: Database, input: StatementInput, readsOn?: Database): Promise<StatementExport> {
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
  return { started: true, chunks: exportChunks(client, input, release, readsOn === db ? undefined : readsOn) };
}
