import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Keyset paging: a page starts after the last row of the one before (or before the first row of the one after),
 * by an index on the list's order, so page 5,000 costs what page 1 costs (no OFFSET, no count of the whole list).
 * A cursor is the position of a row in that order: its id, or its time (to the microsecond) and id.
 */
export interface KeysetRequest {
  /** Rows older than this cursor (the next page down the list). */
  before?: string;
  /** Rows newer than this cursor (the page above). */
  after?: string;
}

export interface KeysetPage<T> {
  rows: T[];
  /** The cursor of the page above (`after`), when there is one. */
  newer?: string;
  /** The cursor of the page below (`before`), when there is one. */
  older?: string;
}

interface Position {
  at?: string;
  id: number;
}

const TIME_ID = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(\d{1,18})$/;
const ID = /^(\d{1,18})$/;

/** The row's position as a cursor: `time_id` when the list is ordered by time then id, else `id`. */
export function cursorOf(row: { cursorAt?: string; id: number }): string {
  return row.cursorAt ? `${row.cursorAt}_${row.id}` : String(row.id);
}

/** A malformed cursor is ignored (the first page): a list is a view, and a hand-edited URL still shows something. */
function parse(text: string | undefined, withTime: boolean): Position | undefined {
  if (!text) return undefined;
  const match = (withTime ? TIME_ID : ID).exec(text);
  if (!match) return undefined;
  const position = withTime ? { at: match[1], id: Number(match[2]) } : { id: Number(match[1]) };
  return Number.isSafeInteger(position.id) && (!withTime || !Number.isNaN(Date.parse(position.at!))) ? position : undefined;
}

/** The text of a timestamptz column to the microsecond, in UTC, as cursors carry it. */
export function cursorTime(column: AnyColumn): SQL<string> {
  return sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export interface KeysetQuery {
  direction: 'first' | 'older' | 'newer';
  /** The condition that starts the page after/before the cursor, if any. */
  where?: SQL;
  /** Newest first, or oldest first when reading the page above (reversed afterwards). */
  descending: boolean;
}

/** How to read the requested page of a list ordered newest first by `(time, id)` (time omitted: by id). */
export function keysetQuery(request: KeysetRequest, id: AnyColumn, time?: AnyColumn): KeysetQuery {
  const key = time ? sql`(${time}, ${id})` : sql`${id}`;
  const value = (position: Position) => (time ? sql`(${position.at}::timestamptz, ${position.id})` : sql`${position.id}`);
  const before = parse(request.before, time !== undefined);
  if (before) return { direction: 'older', where: sql`${key} < ${value(before)}`, descending: true };
  const after = parse(request.after, time !== undefined);
  if (after) return { direction: 'newer', where: sql`${key} > ${value(after)}`, descending: false };
  return { direction: 'first', descending: true };
}

/** The page from `pageSize + 1` rows read in the query's order: the extra row only says that more rows follow. */
export function keysetPage<T extends { cursorAt?: string; id: number }>(query: KeysetQuery, fetched: T[], pageSize: number): KeysetPage<T> {
  const more = fetched.length > pageSize;
  const rows = fetched.slice(0, pageSize);
  if (!query.descending) rows.reverse();
  if (rows.length === 0) return { rows };
  const hasNewer = query.direction === 'older' || (query.direction === 'newer' && more);
  const hasOlder = query.direction === 'newer' || more;
  return {
    rows,
    newer: hasNewer ? cursorOf(rows[0]!) : undefined,
    older: hasOlder ? cursorOf(rows.at(-1)!) : undefined,
  };
}
