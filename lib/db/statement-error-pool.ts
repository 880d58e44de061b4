import pg from 'pg';
import { READ_ONLY_SQL_TRANSACTION } from './failover-signals';

/**
 * node-postgres's `Pool.query` closes its connection whenever the statement fails, also when PostgreSQL only refused
 * that statement (a unique violation, a check constraint, a statement timeout) and the session is as good as before.
 * Each such refusal then costs a new backend (a fork, authentication, cold catalog caches) and every prepared
 * statement parsed and planned again. At 10,000 submits/s two order numbers drawn alike within a second fail a batch
 * about every two seconds (insert-on-free-slots.ts retries it), and the bench saw the submit path's backend replaced
 * as often.
 *
 * On this pool a statement's connection goes back to the pool after an error the server reported at ERROR severity,
 * and is closed after anything else: a FATAL (the server ended the session), a cut or broken connection, or the
 * client's own query timeout (the statement may still be running there). A 25006 (read_only_sql_transaction) is the
 * exception among refusals: the session is sound but its server no longer accepts writes (a primary demoted in a
 * failover), so the connection is closed and the next one opened on the primary. Calls with a callback, and
 * submittables, keep node-postgres's own way.
 */
export function keepConnectionsAfterRefusedStatements(pool: pg.Pool): pg.Pool {
  const queryOwnWay = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const query = (config: unknown, values?: unknown, callback?: unknown) => {
    const ownWay = typeof values === 'function' || typeof callback === 'function' || (typeof config === 'object' && config !== null && 'submit' in config);
    return ownWay ? queryOwnWay(config, values, callback) : queryOnConnection(pool, config as pg.QueryConfig | string, values as unknown[] | undefined);
  };
  pool.query = query as typeof pool.query;
  return pool;
}

async function queryOnConnection(pool: pg.Pool, config: pg.QueryConfig | string, values: unknown[] | undefined): Promise<pg.QueryResult> {
  const client = await pool.connect();
  let result: pg.QueryResult;
  try {
    result = await client.query(config, values);
  } catch (error) {
    client.release(sessionOutlivesError(error) ? undefined : (error as Error));
    throw error;
  }
  client.release();
  return result;
}

/**
 * Whether the session that reported this error can run the next statement: the server refused one statement only,
 * and not because it is read-only (then every write after it would be refused too).
 */
function sessionOutlivesError(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity === 'ERROR' && error.code !== READ_ONLY_SQL_TRANSACTION;
}
