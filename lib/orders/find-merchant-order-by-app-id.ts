import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, orders, type OrderRow } from '../db/schema';
import { OperatorActionRefused } from './operator-errors';

/** The order an operator names by the merchant's appId and merchantOrderNo, locked FOR UPDATE inside `tx`. */
export async function lockMerchantOrderByAppId(tx: Database, appId: string, merchantOrderNo: string): Promise<OrderRow> {
  const [merchant] = await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.appId, appId)).limit(1);
  if (!merchant) throw new OperatorActionRefused(`merchant not found: ${appId}`);
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.merchantId, merchant.id), eq(orders.merchantOrderNo, merchantOrderNo)))
    .for('update')
    .limit(1);
  if (!order) throw new OperatorActionRefused(`order not found: ${appId} ${merchantOrderNo}`);
  return order;
}
