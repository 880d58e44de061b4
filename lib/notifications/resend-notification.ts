import { and, eq, max } from 'drizzle-orm';
import { actionRefused } from '../errors/domain-error';
import type { Database } from '../db/client';
import { notifications } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { lockMerchantOrderByAppId } from '../orders/find-merchant-order-by-app-id';
import { enqueueNotification } from './enqueue';

/**
 * Starts a new delivery cycle for a paid order (attempts from the first again); earlier cycles and their attempts
 * stay as history, and one still retrying is superseded by the new one.
 */
export async function resendNotification(db: Database, input: { appId: string; merchantOrderNo: string; actor: string; now: Date }) {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const order = await lockMerchantOrderByAppId(tx, input.appId, input.merchantOrderNo);
    if (order.status !== 'paid') throw actionRefused(`order ${order.orderNo} is not paid: there is nothing to notify`);
    await tx
      .update(notifications)
      .set({ status: 'superseded', leaseOwner: null, leaseUntil: null })
      .where(and(eq(notifications.orderId, order.id), eq(notifications.status, 'pending')));
    const [latest] = await tx.select({ cycle: max(notifications.cycle) }).from(notifications).where(eq(notifications.orderId, order.id));
    const cycle = (latest?.cycle ?? 0) + 1;
    const notificationId = await enqueueNotification(tx, order, cycle, input.now);
    await recordAudit(tx, { actor: input.actor, action: 'notification.resend', subject: `order:${order.orderNo}`, after: { cycle } });
    return { orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, notificationId: notificationId!, cycle };
  });
}
