import { and, count, desc, eq, gte, lt, or, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import type { MerchantContext } from './merchant-context';
import { ORDERS_PAGE_SIZE, type OrderFilters } from './order-filters';

const DAY_MS = 86_400_000;

/** The context merchant's orders (never another's), newest first, filtered and paged. */
export async function listMerchantOrders(db: Database, context: MerchantContext, filters: OrderFilters) {
  const conditions: SQL[] = [eq(orders.merchantId, context.merchantId)];
  if (filters.channel) conditions.push(eq(orders.channel, filters.channel));
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.from) conditions.push(gte(orders.createdAt, new Date(`${filters.from}T00:00:00Z`)));
  if (filters.to) conditions.push(lt(orders.createdAt, new Date(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS)));
  if (filters.q) conditions.push(or(eq(orders.merchantOrderNo, filters.q), eq(orders.orderNo, filters.q))!);
  const where = and(...conditions);
  const [totals] = await db.select({ total: count() }).from(orders).where(where);
  const rows = await db
    .select({
      orderNo: orders.orderNo,
      merchantOrderNo: orders.merchantOrderNo,
      channel: orders.channel,
      status: orders.status,
      currency: orders.currency,
      payAmountMinor: orders.payAmountMinor,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((filters.page - 1) * ORDERS_PAGE_SIZE);
  const total = totals?.total ?? 0;
  return {
    rows: rows.map(({ payAmountMinor, ...row }) => ({ ...row, amount: formatMinorUnits(payAmountMinor) })),
    total,
    page: filters.page,
    pageCount: Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE)),
  };
}
