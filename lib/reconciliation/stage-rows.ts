import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { reconciliationUpstreamRows } from '../db/schema';
import type { UpstreamRow } from './bill-row';

const BATCH = 1_000;

/**
 * Writes the upstream's rows of a run to reconciliation_upstream_rows as they are read, BATCH at a time: memory holds
 * one batch, however long the bill. Returns how many rows were written.
 */
export async function stageUpstreamRows(db: Database, runId: number, rows: AsyncIterable<UpstreamRow>): Promise<number> {
  let batch: (typeof reconciliationUpstreamRows.$inferInsert)[] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await db.insert(reconciliationUpstreamRows).values(batch);
    count += batch.length;
    batch = [];
  };
  for await (const row of rows) {
    batch.push({ runId, kind: row.kind, reference: row.reference, upstreamReference: row.upstreamReference, refundReference: row.refundReference, account: row.account ?? '', amountMinor: row.amountMinor, status: row.status, occurredAt: row.occurredAt ?? null });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return count;
}

export async function clearStagedRows(db: Database, runId: number): Promise<void> {
  await db.execute(sql`DELETE FROM ${reconciliationUpstreamRows} WHERE run_id = ${runId}`);
}
