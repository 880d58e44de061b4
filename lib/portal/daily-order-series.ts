import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { addCalendarDays, calendarDayInZone, startOfDayInZone } from '../i18n/time-zone';

export interface DailyOrderCount {
  /** The calendar day in the zone the figures are read in, `YYYY-MM-DD`. */
  day: string;
  /** Orders created that day (whatever their status now). */
  created: number;
  /** Orders paid that day (by their paid time, so an order created yesterday and paid today counts today). */
  paid: number;
}

/** The days a series covers in the zone: the `days` calendar days ending with today, and the instant the first began. */
export function seriesWindow(now: Date, timeZone: string, days: number): { labels: string[]; from: Date } {
  const today = calendarDayInZone(now, timeZone);
  const labels = Array.from({ length: days }, (_, index) => addCalendarDays(today, index - (days - 1)));
  return { labels, from: startOfDayInZone(labels[0]!, timeZone) };
}

/**
 * One entry per calendar day in the zone (the merchant reads the days of the pages' time zone, Asia/Shanghai by
 * default) for the `days` days ending with today, oldest first, days without orders included as zeros; only the given
 * merchant's live orders are counted (never its test orders).
 */
export async function dailyOrderSeries(db: Database, merchantId: number, now: Date, timeZone: string, days = 7): Promise<DailyOrderCount[]> {
  const { labels, from } = seriesWindow(now, timeZone, days);
  // to_char in the zone gives the day as text (a `date` column would come back as a local-time Date from node-postgres).
  const createdDay = sql<string>`to_char(${orders.createdAt} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;
  const paidDay = sql<string>`to_char(${orders.paidAt} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;
  const [created, paid] = await Promise.all([
    db
      .select({ day: createdDay, count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.merchantId, merchantId), eq(orders.isTest, false), gte(orders.createdAt, from)))
      .groupBy(sql`1`), // by position: the zone is a parameter, so the select's expression and a repeated one differ
    db
      .select({ day: paidDay, count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.merchantId, merchantId), eq(orders.status, 'paid'), eq(orders.isTest, false), gte(orders.paidAt, from)))
      .groupBy(sql`1`),
  ]);
  const createdByDay = new Map(created.map((row) => [row.day, row.count]));
  const paidByDay = new Map(paid.map((row) => [row.day, row.count]));
  return labels.map((day) => ({ day, created: createdByDay.get(day) ?? 0, paid: paidByDay.get(day) ?? 0 }));
}
