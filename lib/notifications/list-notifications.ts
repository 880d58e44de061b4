import { and, desc, eq, type SQL } from 'drizzle-orm';
import { actionRefused } from '../errors/domain-error';
import type { Database } from '../db/client';
import { merchants, notifications, orders } from '../db/schema';

import type { NotificationStatus } from './notification-statuses';

export { NOTIFICATION_STATUSES, type NotificationStatus } from './notification-statuses';

/** A merchant's notifications, newest first, optionally of one status. */
export async function listNotifications(db: Database, input: { appId: string; status?: NotificationStatus; limit?: number }) {
  const [merchant] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.appId, input.appId)).limit(1);
  if (!merchant) throw actionRefused(`merchant not found: ${input.appId}`);
  const conditions: SQL[] = [eq(orders.merchantId, merchant.id)];
  if (input.status) conditions.push(eq(notifications.status, input.status));
  return db
    .select({
      id: notifications.id,
      orderNo: orders.orderNo,
      merchantOrderNo: orders.merchantOrderNo,
      channel: orders.channel,
      kind: notifications.kind,
      subject: notifications.subject,
      cycle: notifications.cycle,
      status: notifications.status,
      attempts: notifications.attemptCount,
      nextAttemptAt: notifications.nextAttemptAt,
      lastError: notifications.lastError,
      deliveredAt: notifications.deliveredAt,
      failedAt: notifications.failedAt,
    })
    .from(notifications)
    .innerJoin(orders, eq(orders.id, notifications.orderId))
    .where(and(...conditions))
    .orderBy(desc(notifications.id))
    .limit(input.limit ?? 100);
}
