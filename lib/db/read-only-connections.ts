import type pg from 'pg';
import { READ_ONLY_SQL_TRANSACTION } from './failover-signals';

/**
 * A connection whose statement met 25006 (read_only_sql_transaction) is on a server that no longer accepts writes —
 * a primary demoted in a failover, or a DNS name that still resolved to the old one — and every write it would run
 * next fails alike. It is closed when it goes back to the pool, not kept: the pool's next connection is opened on the
 * primary (found again by the locator, or by the front's DNS). Its transaction's ROLLBACK still runs on it first.
 */
export function closeConnectionsThatMetReadOnly(pool: pg.Pool): pg.Pool {
  const metReadOnly = new WeakSet<pg.PoolClient>();
  pool.on('connect', (client) => {
    const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
    connection.on('errorMessage', (message: { code?: unknown }) => {
      if (message.code === READ_ONLY_SQL_TRANSACTION) metReadOnly.add(client);
    });
  });
  // The pool emits 'release' before it decides to keep the client: a client that is ending is removed, not kept.
  pool.on('release', (_error, client) => {
    if (metReadOnly.has(client)) void client.end().catch(() => undefined);
  });
  return pool;
}
