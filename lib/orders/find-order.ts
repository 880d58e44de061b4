import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, type OrderRow } from '../db/schema';

export async function findMerchantOrder(db: Database, merchantId: number, merchantOrderNo: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.merchantId, merchantId), eq(orders.merchantOrderNo, merchantOrderNo)))
    .limit(1);
  return row;
}

export async function findOrderByPayToken(db: Database, payToken: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.payToken, payToken)).limit(1);
  return row;
}
