import { and, eq } from 'drizzle-orm';
import { actionRefused } from '../errors/domain-error';
import type { Database } from '../db/client';
import { merchants, orders, type OrderRow } from '../db/schema';

/** The order an operator names by the merchant's appId and merchantOrderNo, locked FOR UPDATE inside `tx`. */
export async function lockMerchantOrderByAppId(tx: Database, appId: string, merchantOrderNo: string): Promise<OrderRow> {
  const [merchant] = await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.appId, appId)).limit(1);
  if (!merchant) throw actionRefused(`merchant not found: ${appId}`);
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.merchantId, merchant.id), eq(orders.merchantOrderNo, merchantOrderNo)))
    .for('update')
    .limit(1);
  if (!order) throw actionRefused(`order not found: ${appId} ${merchantOrderNo}`);
  return order;
}
