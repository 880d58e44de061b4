import type { Column } from 'drizzle-orm';
import type { PgTimestamp } from 'drizzle-orm/pg-core';
import { parsedDate } from '../clock';

/**
 * A raw node-postgres row (by column name, driver values) as Drizzle would map it to `columns`' keys: for hot
 * statements sent as raw prepared SQL (RETURNING *, a join Drizzle's builder would not write as one statement).
 */
export function mappedRow<Row>(columns: readonly (readonly [string, Column])[], raw: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : fromDriverValue(column, value);
  }
  return row as Row;
}

/**
 * Drizzle's mapping, but a timestamp's text becomes a Date as Drizzle makes it (without a zone: UTC) by the platform's
 * constructor (clock.ts): Drizzle's `new Date(text)` went through Next.js's wrapper, 1.3% of the server's CPU on a
 * submit's profile for the one timestamp it returns.
 */
function fromDriverValue(column: Column, value: unknown): unknown {
  if (typeof value === 'string' && column.columnType === 'PgTimestamp') {
    return parsedDate((column as PgTimestamp<never>).withTimezone ? value : `${value}+0000`);
  }
  return column.mapFromDriverValue(value);
}
