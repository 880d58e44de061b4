import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { dailyOrderSeries, seriesWindow } from './daily-order-series';
import type { MerchantContext } from './merchant-context';

/**
 * The context merchant's figures: today and the last 7 days (today and the 6 days before), as calendar days in the
 * zone the pages show times in. Success rate: paid ÷ (paid + closed) among the window's orders; orders still pending
 * are not counted yet; test orders (the portal's test-order form) are never counted. `days`: the same 7 days one by one (orders created, orders paid), for the overview's chart.
 */
export async function merchantDashboard(db: Database, context: MerchantContext, now: Date, timeZone: string) {
  const weekStart = seriesWindow(now, timeZone, 7).from;
  const todayStart = seriesWindow(now, timeZone, 1).from;
  const [counts] = await db
    .select({
      todayOrders: sql<number>`count(*) FILTER (WHERE ${orders.createdAt} >= ${todayStart}::timestamptz)::int`,
      todayPaid: sql<number>`count(*) FILTER (WHERE ${orders.createdAt} >= ${todayStart}::timestamptz AND ${orders.status} = 'paid')::int`,
      weekOrders: sql<number>`count(*)::int`,
      weekPaid: sql<number>`count(*) FILTER (WHERE ${orders.status} = 'paid')::int`,
      weekClosed: sql<number>`count(*) FILTER (WHERE ${orders.status} = 'closed')::int`,
    })
    .from(orders)
    .where(and(eq(orders.merchantId, context.merchantId), eq(orders.isTest, false), gte(orders.createdAt, weekStart)));
  const totals = await db
    .select({
      channel: orders.channel,
      currency: orders.currency,
      todayMinor: sql<string>`coalesce(sum(${orders.payAmountMinor}) FILTER (WHERE ${orders.paidAt} >= ${todayStart}::timestamptz), 0)::text`,
      weekMinor: sql<string>`sum(${orders.payAmountMinor})::text`,
      weekCount: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(and(eq(orders.merchantId, context.merchantId), eq(orders.status, 'paid'), eq(orders.isTest, false), gte(orders.paidAt, weekStart)))
    .groupBy(orders.channel, orders.currency)
    .orderBy(orders.channel, orders.currency);
  const days = await dailyOrderSeries(db, context.merchantId, now, timeZone, 7);
  const finished = (counts?.weekPaid ?? 0) + (counts?.weekClosed ?? 0);
  return {
    today: { orders: counts?.todayOrders ?? 0, paid: counts?.todayPaid ?? 0 },
    week: { orders: counts?.weekOrders ?? 0, paid: counts?.weekPaid ?? 0, closed: counts?.weekClosed ?? 0, from: weekStart },
    /** Percentage with one decimal, or undefined when no order of the window has finished. */
    successRate: finished === 0 ? undefined : Math.round(((counts?.weekPaid ?? 0) * 1000) / finished) / 10,
    paidTotals: totals.map((row) => ({
      channel: row.channel,
      currency: row.currency,
      today: formatMinorUnits(BigInt(row.todayMinor)),
      week: formatMinorUnits(BigInt(row.weekMinor)),
      weekCount: row.weekCount,
    })),
    days,
  };
}
