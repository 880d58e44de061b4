import { and, eq, max } from 'drizzle-orm';
import { actionRefused } from '../errors/domain-error';
import type { Database } from '../db/client';
import { merchants, notifications, orders } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { lockMerchantOrderByAppId } from './find-merchant-order-by-app-id';
import { enqueueNotice, enqueueNotification } from '../notifications/enqueue';

// Here, not in lib/notifications/: a re-send is an action on an order (found by the merchant's appId, locked), which
// then queues its notice; notifications stay below orders and never look an order up.

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
      .where(and(eq(notifications.orderId, order.id), eq(notifications.kind, 'payment'), eq(notifications.status, 'pending')));
    const [latest] = await tx
      .select({ cycle: max(notifications.cycle) })
      .from(notifications)
      .where(and(eq(notifications.orderId, order.id), eq(notifications.kind, 'payment')));
    const cycle = (latest?.cycle ?? 0) + 1;
    const notificationId = await enqueueNotification(tx, order, cycle, input.now);
    await recordAudit(tx, { actor: input.actor, action: 'notification.resend', subject: `order:${order.orderNo}`, after: { cycle } });
    return { orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, notificationId: notificationId!, cycle };
  });
}

/**
 * Starts a new delivery cycle of the notice one notification row belongs to: a payment notice as above; any other
 * kind (a refund's…) with the same form and URL, its pending cycle superseded. Audited.
 */
export async function resendNotice(db: Database, input: { notificationId: number; actor: string; now: Date }) {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, input.notificationId)).limit(1);
  if (!row) throw actionRefused(`notification not found: ${input.notificationId}`);
  if (row.kind === 'payment') {
    const [order] = await db
      .select({ appId: merchants.appId, merchantOrderNo: orders.merchantOrderNo })
      .from(orders)
      .innerJoin(merchants, eq(merchants.id, orders.merchantId))
      .where(eq(orders.id, row.orderId));
    return resendNotification(db, { appId: order!.appId, merchantOrderNo: order!.merchantOrderNo, actor: input.actor, now: input.now });
  }
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [order] = await tx.select().from(orders).where(eq(orders.id, row.orderId)).for('update');
    const same = and(eq(notifications.orderId, row.orderId), eq(notifications.kind, row.kind), eq(notifications.subject, row.subject));
    await tx.update(notifications).set({ status: 'superseded', leaseOwner: null, leaseUntil: null }).where(and(same, eq(notifications.status, 'pending')));
    const [latest] = await tx.select({ cycle: max(notifications.cycle) }).from(notifications).where(same);
    const cycle = (latest?.cycle ?? 0) + 1;
    const notice = { orderId: row.orderId, kind: row.kind as Exclude<typeof row.kind, 'payment'>, subject: row.subject, notifyUrl: row.notifyUrl, fields: row.fields! };
    const notificationId = await enqueueNotice(tx, notice, input.now, cycle);
    await recordAudit(tx, { actor: input.actor, action: 'notification.resend', subject: `order:${order!.orderNo}`, after: { kind: row.kind, about: row.subject, cycle } });
    return { orderNo: order!.orderNo, merchantOrderNo: order!.merchantOrderNo, notificationId: notificationId!, cycle };
  });
}
