import { onDatabaseServer } from '../test/database-server';

/**
 * A table's bench-made pending orders (order numbers 'BP1', 'BP2', ...) brought to `count`: the missing ones inserted
 * by `insertSql` (generate_series($1 + 1, $2), from those there are to `count`), the extra ones deleted (a size after a
 * larger one: BENCH_PENDING in any order), then the table vacuumed and analysed. The same for the service's table and
 * the baseline's, each inserting its own rows.
 */
export async function bringPendingOrdersTo(url: string, table: string, count: number, insertSql: string): Promise<void> {
  await onDatabaseServer(url, async (client) => {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE order_no LIKE 'BP%'`);
    const have = rows[0]!.n;
    if (have === count) return;
    if (have > count) await client.query(`DELETE FROM ${table} WHERE order_no LIKE 'BP%' AND substr(order_no, 3)::int > $1`, [count]);
    else await client.query(insertSql, [have, count]);
    await client.query(`VACUUM ANALYZE ${table}`);
  });
}
