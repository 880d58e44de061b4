import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { prepared } from '../db/prepared';
import { orders, type OrderRow } from '../db/schema';

export async function findMerchantOrder(db: Database, merchantId: number, merchantOrderNo: string): Promise<OrderRow | undefined> {
  const statement = prepared(db, 'order_by_merchant_order_no', (handle, name) =>
    handle
      .select()
      .from(orders)
      .where(and(eq(orders.merchantId, sql.placeholder('merchantId')), eq(orders.merchantOrderNo, sql.placeholder('merchantOrderNo'))))
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
