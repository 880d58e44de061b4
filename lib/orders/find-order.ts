import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mappedRow } from '../db/mapped-row';
import { prepared, preparedSql } from '../db/prepared';
import { merchantUnchangedSql, settleMerchantCheck, type MerchantCheck } from '../merchants/merchant-check';
import { orders, upstreamOrders, type OrderRow } from '../db/schema';

/** The merchant's order by its merchantOrderNo (placeholders merchantId, merchantOrderNo): one probe of the unique key. */
function byMerchantOrderNo() {
  return and(eq(orders.merchantId, sql.placeholder('merchantId')), eq(orders.merchantOrderNo, sql.placeholder('merchantOrderNo')));
}

export async function findMerchantOrder(db: Database, merchantId: number, merchantOrderNo: string): Promise<OrderRow | undefined> {
  const statement = prepared(db, 'order_by_merchant_order_no', (handle, name) =>
    handle
      .select()
      .from(orders)
      .where(byMerchantOrderNo())
      .limit(1)
      .prepare(name),
  );
  const [row] = await statement.execute({ merchantId, merchantOrderNo });
  return row;
}

/** What the open-API query answers from, on every channel: the order's wire fields, no more. */
export type QueriedOrder = Pick<
  OrderRow,
  'channel' | 'status' | 'orderNo' | 'merchantOrderNo' | 'requestedAmountMinor' | 'payAmountMinor' | 'payMethod' | 'payToken' | 'expiresAt' | 'paidAt' | 'tradeNo' | 'chainType' | 'refundedMinor'
>;

/** The columns the query answers with, by QueriedOrder's keys. */
const QUERIED_COLUMNS = {
  channel: orders.channel,
  status: orders.status,
  orderNo: orders.orderNo,
  merchantOrderNo: orders.merchantOrderNo,
  requestedAmountMinor: orders.requestedAmountMinor,
  payAmountMinor: orders.payAmountMinor,
  refundedMinor: orders.refundedMinor,
  payMethod: orders.payMethod,
  payToken: orders.payToken,
  expiresAt: orders.expiresAt,
  paidAt: orders.paidAt,
  tradeNo: orders.tradeNo,
  chainType: orders.chainType,
} satisfies Record<keyof QueriedOrder, unknown>;
const QUERIED_ENTRIES = Object.entries(QUERIED_COLUMNS);

/**
 * The query's probe of the unique key and the confirmation of a remembered merchant row in one statement: the
 * merchant's row ($1) is read with its order ($2, if any), and whether the row still has version $3.
 */
const QUERIED_ORDER_CHECKED_SQL = `
    SELECT ${merchantUnchangedSql(1, 3)} AS merchant_unchanged, ${QUERIED_ENTRIES.map(([, column]) => `o.${column.name}`).join(', ')}
    FROM (SELECT 1) AS one
    LEFT JOIN orders o ON o.merchant_id = $1::bigint AND o.merchant_order_no = $2`;

/**
 * The merchant's order for the open-API query: the same probe as findMerchantOrder, only the columns it answers
 * with. With a MerchantCheck the same statement confirms the remembered merchant row (StaleMerchant when it changed).
 */
export async function findQueriedOrder(db: Database, merchantId: number, merchantOrderNo: string, check?: MerchantCheck): Promise<QueriedOrder | undefined> {
  if (check) {
    const statement = preparedSql<Record<string, unknown>>(db, 'queried_order_checked', QUERIED_ORDER_CHECKED_SQL, ['merchantId', 'merchantOrderNo', 'version']);
    const { rows } = await statement.execute({ merchantId, merchantOrderNo, version: check.version });
    const raw = rows[0]!;
    settleMerchantCheck(check, raw.merchant_unchanged === true);
    return raw.order_no === null ? undefined : mappedRow<QueriedOrder>(QUERIED_ENTRIES, raw);
  }
  const statement = prepared(db, 'queried_order_by_merchant_order_no', (handle, name) =>
    handle.select(QUERIED_COLUMNS).from(orders).where(byMerchantOrderNo()).limit(1).prepare(name),
  );
  const [row] = await statement.execute({ merchantId, merchantOrderNo });
  return row;
}

export async function findOrderByPayToken(db: Database, payToken: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.payToken, payToken)).limit(1);
  return row;
}

const PAY_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** An order of an upstream channel with its upstream_orders row, by payUrl token (checkout pages, the QR image). */
export async function findOrderWithUpstream(db: Database, payToken: string) {
  if (!PAY_TOKEN.test(payToken)) return undefined;
  const [row] = await db
    .select({ order: orders, upstream: upstreamOrders })
    .from(orders)
    .innerJoin(upstreamOrders, eq(upstreamOrders.orderId, orders.id))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  return row;
}
