import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { cursorTime } from '../db/keyset';
import { addCalendarDays, formatInZone, startOfDayInZone } from '../i18n/time-zone';
import { formatMinorUnits } from '../money/decimal-amount';

/** Rows read per query: memory holds one page, whatever the range holds. */
const PAGE = 1_000;
/** A statement covers at most this many days (both ends included). */
export const STATEMENT_MAX_DAYS = 366;

export const STATEMENT_COLUMNS = ['created', 'orderNo', 'merchantOrderNo', 'channel', 'status', 'currency', 'amount', 'payAmount', 'paid', 'tradeNo', 'productName'] as const;
export type StatementColumn = (typeof STATEMENT_COLUMNS)[number];

/**
 * A CSV field: quoted when it holds a comma, quote or line break; a value a spreadsheet would run as a formula
 * (=, +, -, @ first) is prefixed with an apostrophe, so a product name can never become one.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The day range as instants in the merchant's zone, or why it is refused (naming the field). */
export function statementRange(from: string | undefined, to: string | undefined, timeZone: string): { start: Date; end: Date } | { refused: 'from' | 'to' | 'range' } {
  const valid = (day: string | undefined) => day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
  if (!valid(from)) return { refused: 'from' };
  if (!valid(to)) return { refused: 'to' };
  if (to! < from! || addCalendarDays(from!, STATEMENT_MAX_DAYS) <= to!) return { refused: 'range' };
  return { start: startOfDayInZone(from!, timeZone), end: startOfDayInZone(addCalendarDays(to!, 1), timeZone) };
}

/**
 * The merchant's statement of a range as CSV text, chunk by chunk: UTF-8 with a BOM (so that Excel reads Chinese
 * correctly), the header in the merchant's language, then every order created in the range (oldest first), its times
 * in the merchant's zone, its amounts as written decimals. Orders are read by keyset (created_at, id) on
 * orders_merchant_created_idx, PAGE at a time, so a range of any size streams in bounded memory.
 */
export async function* merchantStatement(
  db: Database,
  input: { merchantId: number; timeZone: string; start: Date; end: Date; header: Record<StatementColumn, string> },
): AsyncGenerator<string> {
  yield `\uFEFF${STATEMENT_COLUMNS.map((column) => csvField(input.header[column])).join(',')}\r\n`;
  // The position to the microsecond (a JS Date keeps milliseconds only, which would repeat or skip rows).
  let cursor: { at: string; id: number } | undefined;
  for (;;) {
    const rows = await db
      .select({
        id: orders.id,
        cursorAt: cursorTime(orders.createdAt),
        createdAt: orders.createdAt,
        orderNo: orders.orderNo,
        merchantOrderNo: orders.merchantOrderNo,
        channel: orders.channel,
        status: orders.status,
        currency: orders.currency,
        requestedAmountMinor: orders.requestedAmountMinor,
        payAmountMinor: orders.payAmountMinor,
        paidAt: orders.paidAt,
        tradeNo: orders.tradeNo,
        productName: orders.productName,
      })
      .from(orders)
      .where(
        and(
          eq(orders.merchantId, input.merchantId),
          gte(orders.createdAt, input.start),
          lt(orders.createdAt, input.end),
          cursor ? sql`(${orders.createdAt}, ${orders.id}) > (${cursor.at}::timestamptz, ${cursor.id})` : undefined,
        ),
      )
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(PAGE);
    if (rows.length === 0) return;
    let chunk = '';
    for (const row of rows) {
      chunk += `${[
        formatInZone(row.createdAt, input.timeZone),
        row.orderNo,
        row.merchantOrderNo,
        row.channel,
        row.status,
        row.currency,
        formatMinorUnits(row.requestedAmountMinor),
        formatMinorUnits(row.payAmountMinor),
        row.paidAt ? formatInZone(row.paidAt, input.timeZone) : '',
        row.tradeNo ?? '',
        row.productName ?? '',
      ]
        .map(csvField)
        .join(',')}\r\n`;
    }
    yield chunk;
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    cursor = { at: last.cursorAt, id: last.id };
  }
}
