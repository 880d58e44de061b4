import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onDatabaseServer } from '../test/database-server';

/**
 * The database's own limit for what a submit does: PostgreSQL's `pgbench` committing single-row inserts with a unique
 * key (one statement, one transaction, prepared) from as many connections as the HTTP load, into a table of its own in
 * the same server and during the same run. No HTTP, no JSON, no signature: what is left of a submit once everything
 * that is ours is taken away.
 */
const TABLE = 'pgbench_single_insert';
const SCRIPT = `\\set k random(1, 9000000000000000000)
INSERT INTO ${TABLE} (k, merchant_order_no, amount, created_at) VALUES (:k, 'pgbench-' || :k, 1234, now()) ON CONFLICT DO NOTHING;
`;

/**
 * The same measure for the row a USDT submit writes, into a copy of the service's own orders table (LIKE orders: its
 * columns, defaults and every index, without foreign keys), filled with the orders ours holds at that size: what
 * PostgreSQL itself can do for this row on this table, one commit per row, beside pgbench's narrow table above.
 */
const ORDER_ROW_TABLE = 'pgbench_order_row';
const ORDER_ROW_SCRIPT = `\\set k random(1, 9000000000000000000)
\\set address 1 + :k % 50
INSERT INTO ${ORDER_ROW_TABLE} (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
  receiving_address_id, pay_token, expires_at, holds_slot, request_id)
VALUES ('U' || :k, 1, 'pgbench-' || :k, 'USDT', 'USDT', 1234, :k, 'TRC20', :address, 'pgbench-' || :k, now() + interval '30 minutes', true, 'pgbench-' || :k)
ON CONFLICT DO NOTHING;
`;

export interface PgbenchResult {
  /** Committed transactions (single-row inserts) per second, without connection set-up. */
  tps: number;
  /** The clients pgbench ran: as many as asked, or fewer when the server's max_connections has no room for them. */
  clients: number;
  /** Average latency of one insert, ms. */
  latencyMs: number;
}

export async function preparePgbenchTable(url: string): Promise<void> {
  await onDatabaseServer(url, (client) =>
    client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (k bigint PRIMARY KEY, merchant_order_no text NOT NULL UNIQUE, amount bigint NOT NULL, created_at timestamptz NOT NULL)`),
  );
}

/** A fresh copy of ours' orders table, its rows and its indexes, for orderRowInsertRate. */
export async function prepareOrderRowTable(oursUrl: string): Promise<{ indexes: number }> {
  return onDatabaseServer(oursUrl, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${ORDER_ROW_TABLE}`);
    await client.query(`CREATE TABLE ${ORDER_ROW_TABLE} (LIKE orders INCLUDING DEFAULTS INCLUDING INDEXES)`);
    await client.query(`INSERT INTO ${ORDER_ROW_TABLE} SELECT * FROM orders`);
    await client.query(`ANALYZE ${ORDER_ROW_TABLE}`);
    const { rows } = await client.query<{ indexes: number }>(`SELECT count(*)::int AS indexes FROM pg_index WHERE indrelid = $1::regclass`, [ORDER_ROW_TABLE]);
    return rows[0]!;
  });
}

/** pgbench inserting a submit's row into the copy of the orders table (prepareOrderRowTable), one row per commit. */
export function orderRowInsertRate(oursUrl: string, connections: number, seconds: number): Promise<PgbenchResult> {
  return pgbenchInsertRate(oursUrl, connections, seconds, ORDER_ROW_SCRIPT);
}

/** Connections the server can still accept from a non-superuser's point of view (max_connections less those open and reserved). */
async function freeConnections(url: string): Promise<number> {
  return onDatabaseServer(url, async (client) => {
    const { rows } = await client.query<{ free: number }>(
      `SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int - count(*)::int AS free FROM pg_stat_activity`,
    );
    return rows[0]!.free;
  });
}

/**
 * Runs pgbench for `seconds` at `connections` clients (two threads: the machine's cores) against `url`, or at as many
 * as the server has room for (a server with max_connections = 100 cannot take 128 more).
 */
export async function pgbenchInsertRate(url: string, connections: number, seconds: number, script = SCRIPT): Promise<PgbenchResult> {
  const clients = Math.max(1, Math.min(connections, (await freeConnections(url)) - 2));
  connections = clients;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgbench-'));
  const scriptFile = path.join(dir, 'single-insert.sql');
  writeFileSync(scriptFile, script);
  try {
    const output = await run('pgbench', ['-n', '-M', 'prepared', '-c', String(connections), '-j', String(Math.min(connections, os.cpus().length)), '-T', String(seconds), '-f', scriptFile, url]);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
    const latency = /latency average = ([\d.]+) ms/.exec(output);
    if (!tps) throw new Error(`pgbench printed no tps:\n${output}`);
    return { tps: Number(tps[1]), clients, latencyMs: latency ? Number(latency[1]) : Number.NaN };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('pgbench not found: it comes with the PostgreSQL server (Debian: postgresql)') : error),
    );
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`pgbench exited with ${code}:\n${output}`))));
  });
}
