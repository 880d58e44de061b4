import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, type OrderRow } from '../../db/schema';
import type { NoticedChannel } from '../../notifications/close-notice';
import { closePendingOrders } from '../../orders/order-status';

/** A pending order whose upstream cannot be asked is closed anyway this long after its window (a later payment is recorded as late). */
export const CLOSE_WITHOUT_ANSWER_AFTER_MS = 60 * 60_000;

/** True once the order has gone unanswered for CLOSE_WITHOUT_ANSWER_AFTER_MS past its window: the poller gives up asking. */
export function unansweredTooLong(order: OrderRow, now: Date): boolean {
  return order.expiresAt.getTime() + CLOSE_WITHOUT_ANSWER_AFTER_MS <= now.getTime();
}

/** Closes the channel's order here if it is still pending (a concurrent callback may have marked it paid); true when this call closed it. */
export async function closePendingOrder(db: Database, channel: NoticedChannel, order: OrderRow, now: Date): Promise<boolean> {
  return (await closePendingOrders(db, channel, eq(orders.id, order.id), now)) > 0;
}

/** After the upstream could not be asked: the order is closed once it has gone unanswered too long (if still pending), else the check failed. */
export async function closeWhenUnansweredTooLong(db: Database, channel: NoticedChannel, order: OrderRow, now: Date): Promise<'closed' | 'failed'> {
  return unansweredTooLong(order, now) && (await closePendingOrder(db, channel, order, now)) ? 'closed' : 'failed';
}
