import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';

const DAY_MS = 86_400_000;

export interface DailyOrderCount {
  /** The UTC calendar day, `YYYY-MM-DD`. */
  day: string;
  /** Orders created that day (whatever their status now). */
  created: number;
  /** Orders paid that day (by their paid time, so an order created yesterday and paid today counts today). */
  paid: number;
}

/** The start (00:00 UTC) of the UTC day that contains `now`. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * One entry per UTC day for the `days` days ending with today (oldest first), days without orders included as
 * zeros; only the given merchant's orders are counted.
 */
export async function dailyOrderSeries(db: Database, merchantId: number, now: Date, days = 7): Promise<DailyOrderCount[]> {
  const from = new Date(utcDayStart(now).getTime() - (days - 1) * DAY_MS);
  // to_char in UTC gives the day as text (a `date` column would come back as a local-time Date from node-postgres).
  const createdDay = sql<string>`to_char(${orders.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const paidDay = sql<string>`to_char(${orders.paidAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const [created, paid] = await Promise.all([
    db
      .select({ day: createdDay, count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.merchantId, merchantId), gte(orders.createdAt, from)))
      .groupBy(createdDay),
    db
      .select({ day: paidDay, count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.merchantId, merchantId), eq(orders.status, 'paid'), gte(orders.paidAt, from)))
      .groupBy(paidDay),
  ]);
  const createdByDay = new Map(created.map((row) => [row.day, row.count]));
  const paidByDay = new Map(paid.map((row) => [row.day, row.count]));
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10);
    return { day, created: createdByDay.get(day) ?? 0, paid: paidByDay.get(day) ?? 0 };
  });
}
