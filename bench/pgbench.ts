import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onServer } from './on-server';

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

export interface PgbenchResult {
  /** Committed transactions (single-row inserts) per second, without connection set-up. */
  tps: number;
  /** The clients pgbench ran: as many as asked, or fewer when the server's max_connections has no room for them. */
  clients: number;
  /** Average latency of one insert, ms. */
  latencyMs: number;
}

export async function preparePgbenchTable(url: string): Promise<void> {
  await onServer(url, (client) =>
    client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (k bigint PRIMARY KEY, merchant_order_no text NOT NULL UNIQUE, amount bigint NOT NULL, created_at timestamptz NOT NULL)`),
  );
}

/** Connections the server can still accept from a non-superuser's point of view (max_connections less those open and reserved). */
async function freeConnections(url: string): Promise<number> {
  return onServer(url, async (client) => {
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
export async function pgbenchInsertRate(url: string, connections: number, seconds: number): Promise<PgbenchResult> {
  const clients = Math.max(1, Math.min(connections, (await freeConnections(url)) - 2));
  connections = clients;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgbench-'));
  const script = path.join(dir, 'single-insert.sql');
  writeFileSync(script, SCRIPT);
  try {
    const output = await run('pgbench', ['-n', '-M', 'prepared', '-c', String(connections), '-j', String(Math.min(connections, os.cpus().length)), '-T', String(seconds), '-f', script, url]);
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
