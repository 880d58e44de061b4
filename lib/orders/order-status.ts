import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, type OrderRow } from '../db/schema';
import { ORDER_STATUSES, type CloseReason, type OrderStatus } from '../db/schema/orders';
import { enqueueCloseNotices, type NoticedChannel } from '../notifications/close-notice';
import { enqueueNotification } from '../notifications/enqueue';
import { countOrderEvent } from '../observability/metrics';

/**
 * An order's lifecycle, on every channel: 'pending' until it is paid ('paid') or closed ('closed'); an operator may
 * still mark a closed order paid. The column has a CHECK constraint naming these three (lib/db/schema/orders.ts);
 * each channel derives its wire status from it. Every change of status goes through this file.
 */
export { ORDER_STATUSES, type OrderStatus };

export { checkoutState, effectiveStatus, numericWireStatus, statusOfCheckoutState, textWireStatus, type NumericWireStatus, type TextWireStatus } from './effective-status';

/** The rows whose effective status (above) at `now` is `status`, as SQL, so that filters agree with what rows show. */
export function effectiveStatusIs(status: OrderStatus, now: Date): SQL {
  if (status === 'paid') return sql`${orders.status} = 'paid'`;
  if (status === 'pending') return sql`(${orders.status} = 'pending' AND ${orders.expiresAt} > ${now.toISOString()}::timestamptz)`;
  return sql`(${orders.status} = 'closed' OR (${orders.status} = 'pending' AND ${orders.expiresAt} <= ${now.toISOString()}::timestamptz))`;
}

export interface PaymentReport {
  orderId: number;
  /** Where the payment was learnt, as the channel names it ('<channel>-notify', '<channel>-query', …), or 'manual'. */
  via: string;
  paidAt: Date;
  tradeNo?: string;
  /** Who paid, as the upstream names them (a chain's sending address, an upstream's buyer id). */
  payer?: string;
  /**
   * Pay an order that has already closed: an operator's manual completion, or a chain payment whose block time lies
   * inside the order's window but that was confirmed after the window ended.
   */
  allowClosed?: boolean;
}

export type MarkPaidResult = { changed: true; order: OrderRow } | { changed: false; order: OrderRow | undefined };

/**
 * The one way an order becomes paid. A conditional update moves it forward from pending (or closed, for an
 * operator); in the same transaction the first notification cycle is written. Reporting the same payment again
 * changes nothing and writes no second notification.
 */
export async function markOrderPaid(tx: Database, report: PaymentReport): Promise<MarkPaidResult> {
  const from: OrderStatus[] = report.allowClosed ? ['pending', 'closed'] : ['pending'];
  const [paid] = await tx
    .update(orders)
    // A paid order's slot is free at once: its payer has paid.
    .set({ status: 'paid', holdsSlot: false, paidAt: report.paidAt, tradeNo: report.tradeNo, payer: report.payer, paidVia: report.via, updatedAt: new Date() })
    .where(and(eq(orders.id, report.orderId), inArray(orders.status, from)))
    .returning();
  if (!paid) {
    const [current] = await tx.select().from(orders).where(eq(orders.id, report.orderId)).limit(1);
    return { changed: false, order: current };
  }
  await enqueueNotification(tx, paid, 1, report.paidAt);
  countOrderEvent(paid.channel, 'paid');
  return { changed: true, order: paid };
}

/**
 * The one close: every order of `channel` that `which` selects and is still pending becomes closed at `now`; a paid
 * order is never closed (a concurrent payment wins). Returns how many it closed. 'pending' is written literally so
 * that the planner can use the partial indexes on pending orders. Merchants who opted in get an expiry notice,
 * written in the same transaction, naming the order as the channel's notices do.
 */
export async function closePendingOrders(db: Database, channel: NoticedChannel, which: SQL, now: Date): Promise<number> {
  const closed = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const rows = await tx
      .update(orders)
      .set({ status: 'closed', closedAt: now, closeReason: 'expired', updatedAt: now })
      .where(and(sql`${orders.status} = 'pending'`, eq(orders.channel, channel.name), which))
      .returning();
    await enqueueCloseNotices(tx, channel, rows, 'expired', now);
    return rows;
  });
  // Counted once committed (a rolled-back close closed nothing). Past its window it expired; before, its upstream closed it.
  for (const order of closed) countOrderEvent(order.channel, order.expiresAt.getTime() <= now.getTime() ? 'expired' : 'closed');
  return closed.length;
}

/**
 * Someone closes one order before its window ends (lib/orders/close-order.ts): only while it is pending and its window
 * is open (a concurrent payment or expiry wins). The window ends now, so every rule that judges a payment by the
 * window (a USDT transfer after it is late, never credited; the slot's cool-down) treats the close as its end.
 * Answers the closed row, or undefined when the order was not pending in an open window.
 */
export async function closeOpenOrder(tx: Database, orderId: number, now: Date, reason: Exclude<CloseReason, 'expired'> = 'closed'): Promise<OrderRow | undefined> {
  const [closed] = await tx
    .update(orders)
    .set({ status: 'closed', closedAt: now, closeReason: reason, expiresAt: now, updatedAt: now })
    .where(and(eq(orders.id, orderId), sql`${orders.status} = 'pending'`, gt(orders.expiresAt, now)))
    .returning();
  if (closed) countOrderEvent(closed.channel, 'closed');
  return closed;
}
