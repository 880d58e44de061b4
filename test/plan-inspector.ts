import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../lib/db/client';
import * as schema from '../lib/db/schema';

/** A statement as the service sent it to PostgreSQL. */
export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/**
 * A Database whose connections record every statement the service's own code sends (text and values, prepared or
 * not, in transactions too), so a test can EXPLAIN the real statements instead of copies of them.
 */
export function capturingDatabase(url: string): { db: Database; capture<T>(work: () => Promise<T>): Promise<CapturedStatement[]>; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  let recording: CapturedStatement[] | undefined;
  // The harness drops the file's database when it ends, terminating these sessions: that is no failure of the test.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown];
      const text = typeof config === 'string' ? config : config.text;
      const bound = Array.isArray(values) ? values : typeof config === 'string' ? [] : (config.values ?? []);
      if (recording && !/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(text)) recording.push({ text, values: bound });
      return query(...args);
    };
  });
  const db = drizzle(pool, { schema }) as Database;
  return {
    db,
    async capture(work) {
      const statements: CapturedStatement[] = [];
      recording = statements;
      try {
        await work();
      } finally {
        recording = undefined;
      }
      return statements;
    },
    close: () => pool.end(),
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

export interface PlanReading {
  text: string;
  /** Rows the scans produced or threw away (per loop, times loops), over the whole plan. */
  rowsRead: number;
  /** "Seq Scan on orders" and the like, for every table scanned in full. */
  seqScans: string[];
  executionMs: number;
  plan: unknown;
}

const SCANS = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan', 'Tid Scan']);

function walk(node: PlanNode, reading: { rowsRead: number; seqScans: string[] }): void {
  if (SCANS.has(node['Node Type'])) {
    const removed = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
    reading.rowsRead += (node['Actual Rows'] + removed) * node['Actual Loops'];
  }
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) reading.seqScans.push(`Seq Scan on ${node['Relation Name']}`);
  for (const child of node.Plans ?? []) walk(child, reading);
}

/** How many times the plan scanned the index (its scans' loops, over the whole plan): one per probe of a subplan. */
export function indexScans(reading: PlanReading, index: string): number {
  const loops = (node: PlanNode): number =>
    (node['Index Name'] === index ? node['Actual Loops'] : 0) + (node.Plans ?? []).reduce((sum, child) => sum + loops(child), 0);
  return loops(reading.plan as PlanNode);
}

/**
 * EXPLAIN (ANALYZE, FORMAT JSON) of the statement with its values, in a transaction rolled back afterwards. The
 * statement has run once already: a plain INSERT that now meets its own row (unique violation) is one row written
 * through unique index probes, and is read as such.
 */
export async function explainAnalyze(client: pg.Client, statement: CapturedStatement): Promise<PlanReading> {
  await client.query('BEGIN');
  try {
    return await explainOnce(client, statement).catch((error: unknown) => {
      if ((error as { code?: string }).code !== '23505' || !/^\s*insert\b/i.test(statement.text)) throw error;
      return { text: statement.text, rowsRead: 1, seqScans: [], executionMs: 0, plan: 'INSERT of one row, met on its unique key' };
    });
  } finally {
    await client.query('ROLLBACK');
  }
}

async function explainOnce(client: pg.Client, statement: CapturedStatement): Promise<PlanReading> {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  const [top] = rows[0]!['QUERY PLAN'];
  const reading = { rowsRead: 0, seqScans: [] as string[] };
  walk(top.Plan, reading);
  return { text: statement.text, ...reading, executionMs: top['Execution Time'], plan: top.Plan };
}
