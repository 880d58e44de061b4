import { and, asc, desc, eq, gt, gte, like, lt, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { cursorTime, keysetPage, keysetQuery } from '../db/keyset';
import { orders } from '../db/schema';
import { addCalendarDays, startOfDayInZone } from '../i18n/time-zone';
import { formatMinorUnits } from '../money/decimal-amount';
import type { MerchantContext } from './merchant-context';
import { orderStanding } from '../orders/order-standing';
import { effectiveStatus, effectiveStatusIs } from '../orders/order-status';
import { ORDERS_PAGE_SIZE, testOrderCondition, type OrderFilters } from './order-filters';

/** Values of `column` that begin with `prefix` (LIKE's wildcards and escape in it taken literally). */
function startsWith(column: AnyColumn, prefix: string): SQL {
  return like(column, `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
}

/**
 * The context merchant's orders (never another's), newest first, filtered and paged by keyset on
 * orders_merchant_created_idx: any page of a merchant with millions of orders reads one page of rows. The from/to
 * dates are calendar days in the merchant's time zone, both included. Test orders are left out unless the filter asks
 * for them.
 */
export async function listMerchantOrders(db: Database, context: MerchantContext, filters: OrderFilters, now = new Date()) {
  const conditions: SQL[] = [eq(orders.merchantId, context.merchantId)];
  const test = testOrderCondition(filters.test);
  if (test) conditions.push(test);
  if (filters.channel) conditions.push(eq(orders.channel, filters.channel));
  if (filters.status === 'refunded') conditions.push(gt(orders.refundedMinor, 0n));
  else if (filters.status) conditions.push(effectiveStatusIs(filters.status, now));
  if (filters.from) conditions.push(gte(orders.createdAt, startOfDayInZone(filters.from, context.timeZone)));
  if (filters.to) conditions.push(lt(orders.createdAt, startOfDayInZone(addCalendarDays(filters.to, 1), context.timeZone)));
  if (filters.q) conditions.push(or(startsWith(orders.merchantOrderNo, filters.q), startsWith(orders.orderNo, filters.q))!);
  const page = keysetQuery(filters, orders.id, orders.createdAt);
  if (page.where) conditions.push(page.where);
  const order = page.descending ? desc : asc;
  const fetched = await db
    .select({
      id: orders.id,
      cursorAt: cursorTime(orders.createdAt),
      orderNo: orders.orderNo,
      merchantOrderNo: orders.merchantOrderNo,
      channel: orders.channel,
      status: orders.status,
      currency: orders.currency,
      payAmountMinor: orders.payAmountMinor,
      refundedMinor: orders.refundedMinor,
      closeReason: orders.closeReason,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      expiresAt: orders.expiresAt,
      isTest: orders.isTest,
    })
    .from(orders)
    .where(and(...conditions))
    .orderBy(order(orders.createdAt), order(orders.id))
    .limit(ORDERS_PAGE_SIZE + 1);
  const { rows, newer, older } = keysetPage(page, fetched, ORDERS_PAGE_SIZE);
  return {
    rows: rows.map(({ payAmountMinor, refundedMinor, closeReason, id: _id, cursorAt: _cursorAt, expiresAt, ...row }) => ({
      ...row,
      status: effectiveStatus({ status: row.status, expiresAt }, now),
      standing: orderStanding({ status: row.status, expiresAt, closeReason, payAmountMinor, refundedMinor }, now),
      amount: formatMinorUnits(payAmountMinor),
    })),
    newer,
    older,
  };
}
