import { recentMerchantRefunds } from './stuck-refunds';
import { and, asc, count, desc, eq, ilike, inArray, isNull, max, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, auditLog, merchants, orders, upstreamCredentials } from '../db/schema';
import { listMerchantCredentials } from '../credentials/credentials';
import { formatMinorUnits } from '../money/decimal-amount';
import { orderStanding } from '../orders/order-standing';
import { effectiveStatus } from '../orders/order-status';
import { cursorTime, keysetPage, keysetQuery, type KeysetPage, type KeysetRequest } from '../db/keyset';
import { containsPattern } from './paging';

export const MERCHANTS_PAGE_SIZE = 25;

/** The list counts a merchant's orders up to this many (shown as "1000+"), so a page never reads them all. */
export const ORDER_COUNT_CAP = 1_000;

export interface MerchantListRow {
  id: number;
  appId: string;
  name: string;
  orderPermission: boolean;
  createdAt: Date;
  /** Up to ORDER_COUNT_CAP + 1 (more than the cap). */
  orderCount: number;
  pendingCredentials: number;
}

/** Merchants, newest first, optionally those whose name or AppID contains `q` (case-insensitive), paged by keyset. */
export async function listMerchants(db: Database, filter: { q?: string } & KeysetRequest): Promise<KeysetPage<MerchantListRow>> {
  const q = filter.q?.trim();
  const page = keysetQuery(filter, merchants.id, merchants.createdAt);
  const where = and(q ? or(ilike(merchants.name, containsPattern(q)), ilike(merchants.appId, containsPattern(q))) : undefined, page.where);
  const order = page.descending ? desc : asc;
  const rows = await db
    .select({
      id: merchants.id,
      cursorAt: cursorTime(merchants.createdAt),
      appId: merchants.appId,
      name: merchants.name,
      orderPermission: merchants.orderPermission,
      createdAt: merchants.createdAt,
      // Qualified by hand: inside a select list Drizzle renders a column without its table. The ORDER BY keeps the
      // capped count on orders_merchant_created_idx (else PostgreSQL may scan `orders` for the first rows).
      orderCount: sql<number>`(SELECT count(*)::int FROM (SELECT 1 FROM orders o WHERE o.merchant_id = merchants.id
        ORDER BY o.created_at DESC LIMIT ${ORDER_COUNT_CAP + 1}) AS capped)`,
      pendingCredentials: sql<number>`(SELECT count(*)::int FROM upstream_credentials c WHERE c.merchant_id = merchants.id
        AND c.review_status = 'pending' AND c.deleted_at IS NULL)`,
    })
    .from(merchants)
    .where(where)
    .orderBy(order(merchants.createdAt), order(merchants.id))
    .limit(MERCHANTS_PAGE_SIZE + 1);
  const result = keysetPage(
    page,
    rows.map((row) => ({ ...row, orderCount: Number(row.orderCount), pendingCredentials: Number(row.pendingCredentials) })),
    MERCHANTS_PAGE_SIZE,
  );
  return { ...result, rows: result.rows.map(({ cursorAt: _cursorAt, ...row }) => row) };
}

const RECENT_ORDERS = 20;

/**
 * Everything the console shows about one merchant: its AppID and the AppSecret's metadata (when it was created,
 * last rotated, last revealed — never the secret, which is not even read here), its accounts, its credentials
 * (non-secret fields) and its most recent orders.
 */
export async function merchantDetail(db: Database, appId: string, now = new Date()) {
  const [merchant] = await db
    .select({ id: merchants.id, appId: merchants.appId, name: merchants.name, orderPermission: merchants.orderPermission, createdAt: merchants.createdAt, updatedAt: merchants.updatedAt })
    .from(merchants)
    .where(eq(merchants.appId, appId))
    .limit(1);
  if (!merchant) return undefined;
  const subject = `merchant:${merchant.appId}`;
  const secretEvents = await db
    .select({ action: auditLog.action, at: max(auditLog.createdAt) })
    .from(auditLog)
    .where(and(eq(auditLog.subject, subject), inArray(auditLog.action, ['merchant.app_secret.rotate', 'merchant.app_secret.reveal'])))
    .groupBy(auditLog.action);
  const lastAt = (action: string) => secretEvents.find((event) => event.action === action)?.at ?? null;
  const memberAccounts = await db
    .select({ id: accounts.id, email: accounts.email, createdAt: accounts.createdAt })
    .from(accounts)
    .where(eq(accounts.merchantId, merchant.id))
    .orderBy(accounts.id);
  const recentOrders = await db
    .select({
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
      paidVia: orders.paidVia,
      expiresAt: orders.expiresAt,
      isTest: orders.isTest,
    })
    .from(orders)
    .where(eq(orders.merchantId, merchant.id))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(RECENT_ORDERS);
  const [orderTotals] = await db.select({ total: count() }).from(orders).where(eq(orders.merchantId, merchant.id));
  return {
    merchant,
    secret: {
      createdAt: merchant.createdAt,
      lastRotatedAt: lastAt('merchant.app_secret.rotate'),
      lastRevealedAt: lastAt('merchant.app_secret.reveal'),
    },
    accounts: memberAccounts,
    credentials: await listMerchantCredentials(db, merchant.id),
    orders: recentOrders.map(({ payAmountMinor, refundedMinor, closeReason, expiresAt, ...order }) => ({
      ...order,
      status: effectiveStatus({ status: order.status, expiresAt }, now),
      standing: orderStanding({ status: order.status, expiresAt, closeReason, payAmountMinor, refundedMinor }, now),
      amount: formatMinorUnits(payAmountMinor),
    })),
    orderCount: orderTotals?.total ?? 0,
    refunds: await recentMerchantRefunds(db, merchant.id),
  };
}

export type MerchantDetail = NonNullable<Awaited<ReturnType<typeof merchantDetail>>>;

/** Used by the index page. */
export async function countPendingCredentials(db: Database): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(upstreamCredentials)
    .where(and(eq(upstreamCredentials.reviewStatus, 'pending'), isNull(upstreamCredentials.deletedAt)));
  return row?.total ?? 0;
}
