import { sql } from 'drizzle-orm';
import { getDb } from '../lib/db/client';
import { postgresArray } from '../lib/db/postgres-array';

/**
 * How many orders each merchantOrderNo has, in the order given, read in one statement: a load test checks that each of
 * thousands of acknowledged or retried submits was stored exactly once.
 */
export async function storedOrderCounts(merchantOrderNos: readonly string[]): Promise<number[]> {
  const { rows } = await getDb().execute<{ merchant_order_no: string; count: number }>(
    sql`SELECT merchant_order_no, count(*)::int AS count FROM orders WHERE merchant_order_no = ANY(${postgresArray(merchantOrderNos)}::text[]) GROUP BY merchant_order_no`,
  );
  const counts = new Map(rows.map((row) => [row.merchant_order_no, row.count]));
  return merchantOrderNos.map((merchantOrderNo) => counts.get(merchantOrderNo) ?? 0);
}
