import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, type OrderRow } from '../db/schema';
import { enqueueNotification } from '../notifications/enqueue';

export interface PaymentReport {
  orderId: number;
  /** 'alipay-notify', 'alipay-query', 'wechat-notify', 'wechat-poll', 'yht-callback', 'chain', 'manual' … */
  via: string;
  paidAt: Date;
  tradeNo?: string;
  /** Who paid, as the upstream names them (USDT: the sending address). */
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
  const from = report.allowClosed ? ['pending', 'closed'] : ['pending'];
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
  return { changed: true, order: paid };
}
