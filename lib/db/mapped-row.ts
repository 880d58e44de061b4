import type { Column } from 'drizzle-orm';

/**
 * A raw node-postgres row (by column name, driver values) as Drizzle would map it to `columns`' keys: for hot
 * statements sent as raw prepared SQL (RETURNING *, a join Drizzle's builder would not write as one statement).
 */
export function mappedRow<Row>(columns: readonly (readonly [string, Column])[], raw: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as Row;
}
