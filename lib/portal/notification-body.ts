import { eq } from 'drizzle-orm';
import { notificationFieldsOf } from '../channels';
import type { Database } from '../db/client';
import { merchants, type OrderRow } from '../db/schema';
import { appSecretOf } from '../merchants/app-secret-cache';
import { notificationForm } from '../notifications/notification-form';
import type { MerchantContext } from './merchant-context';

/**
 * The form body the order's payment notification posts (application/x-www-form-urlencoded), signed as the worker signs
 * it: with the merchant's current AppSecret, so it is what the next attempt sends. None before the order is paid.
 */
export async function notificationBodyOf(db: Database, context: MerchantContext, order: OrderRow): Promise<string | undefined> {
  if (order.status !== 'paid') return undefined;
  const [merchant] = await db.select({ appSecretEncrypted: merchants.appSecretEncrypted }).from(merchants).where(eq(merchants.id, context.merchantId));
  if (!merchant) return undefined;
  return new URLSearchParams(notificationForm(order, notificationFieldsOf, context.appId, appSecretOf(merchant.appSecretEncrypted))).toString();
}
