import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { prepared } from '../db/prepared';
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

/** The merchant's order for the open-API query: the same probe as findMerchantOrder, only the columns it answers with. */
export async function findQueriedOrder(db: Database, merchantId: number, merchantOrderNo: string): Promise<QueriedOrder | undefined> {
  const statement = prepared(db, 'queried_order_by_merchant_order_no', (handle, name) =>
    handle
      .select({
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
      })
      .from(orders)
      .where(byMerchantOrderNo())
      .limit(1)
      .prepare(name),
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
