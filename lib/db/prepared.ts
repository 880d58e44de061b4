import { sql } from 'drizzle-orm';
import type { QueryResult, QueryResultRow } from 'pg';
import type { Database } from './client';

/**
 * Statements of the hot paths, built once per database handle and run as named PostgreSQL prepared statements:
 * Drizzle's query building is skipped on every call, and PostgreSQL parses each statement once per connection.
 *
 * Statements belong to the handle they were built on (its pool, or a transaction's connection), so they are cached
 * per handle: the process's Database keeps its own for its lifetime; a transaction handle (a drizzle `tx` passed as
 * Database) gets statements bound to its connection, which go away with it. A name stands for one SQL text: give
 * every statement its own name.
 */
const cache = new WeakMap<Database, Map<string, unknown>>();

export function prepared<T>(db: Database, name: string, build: (db: Database, name: string) => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (!statement) {
    statement = build(db, name);
    statements.set(name, statement);
  }
  return statement;
}

export interface RawStatement<Row extends QueryResultRow> {
  execute(values: Record<string, unknown>): Promise<QueryResult<Row>>;
}

/**
 * A raw SQL statement with `$1..$n` bound by name (`params[i]` is the name of `$i+1`), prepared as above. It runs
 * through the handle's Drizzle session, so in a transaction it runs on the transaction's connection; rows come back
 * as from `db.execute` (node-postgres values, no mapping).
 */
export function preparedSql<Row extends QueryResultRow>(
  db: Database,
  name: string,
  text: string,
  params: readonly string[],
): RawStatement<Row> {
  return prepared(db, name, (handle) =>
    handle._.session.prepareQuery<{ execute: QueryResult<Row>; all: unknown; values: unknown }>(
      { sql: text, params: params.map((param) => sql.placeholder(param)) },
      undefined,
      name,
      false,
    ),
  );
}
