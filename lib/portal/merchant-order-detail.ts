import { and, asc, eq, inArray } from 'drizzle-orm';
import { notFound } from '../errors/domain-error';
import type { Database } from '../db/client';
import { notificationAttempts, notifications, orders, type OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { effectiveStatus } from '../orders/order-status';
import { endReason, orderStanding, type EndReason } from '../orders/order-standing';
import type { MerchantContext } from './merchant-context';

export type TimelineEvent =
  | { kind: 'created'; at: Date }
  | { kind: 'paid'; at: Date; via: string | null; tradeNo: string | null }
  | { kind: 'closed'; at: Date; reason: EndReason }
  | { kind: 'notification-queued'; at: Date; cycle: number; notice: OrderNoticeKind }
  | {
      kind: 'notification-attempt';
      at: Date;
      cycle: number;
      notice: OrderNoticeKind;
      attemptNo: number;
      outcome: string;
      httpStatus: number | null;
      latencyMs: number | null;
      responseExcerpt: string | null;
      error: string | null;
    }
  | { kind: 'notification-delivered'; at: Date; cycle: number; notice: OrderNoticeKind }
  | { kind: 'notification-failed'; at: Date; cycle: number; notice: OrderNoticeKind };

/** The notices about the order itself the page shows: its payment notification, and a close or expiry notice (opt-in). */
const ORDER_NOTICE_KINDS = ['payment', 'closed', 'expired'] as const;
export type OrderNoticeKind = (typeof ORDER_NOTICE_KINDS)[number];

/** One order of the context merchant by its platform number (another merchant's order is "not found"). */
export async function findMerchantOrder(db: Database, context: MerchantContext, orderNo: string): Promise<OrderRow> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.merchantId, context.merchantId), eq(orders.orderNo, orderNo)))
    .limit(1);
  if (!order) throw notFound('order');
  return order;
}

/** The order as the merchant sees it, with its timeline: created, paid or closed, every notification attempt. */
export async function merchantOrderDetail(db: Database, context: MerchantContext, orderNo: string, now = new Date()) {
  const order = await findMerchantOrder(db, context, orderNo);
  const cycles = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.orderId, order.id), inArray(notifications.kind, [...ORDER_NOTICE_KINDS])))
    .orderBy(asc(notifications.createdAt), asc(notifications.cycle));
  const attempts =
    cycles.length === 0
      ? []
      : await db
          .select()
          .from(notificationAttempts)
          .where(inArray(notificationAttempts.notificationId, cycles.map((cycle) => cycle.id)))
          .orderBy(asc(notificationAttempts.startedAt), asc(notificationAttempts.attemptNo));
  const cycleOf = new Map(cycles.map((cycle) => [cycle.id, cycle]));
  const noticeOf = (kind: string) => kind as OrderNoticeKind;

  const events: TimelineEvent[] = [{ kind: 'created', at: order.createdAt }];
  if (order.paidAt) events.push({ kind: 'paid', at: order.paidAt, via: order.paidVia, tradeNo: order.tradeNo });
  if (order.closedAt) events.push({ kind: 'closed', at: order.closedAt, reason: endReason(order) });
  for (const cycle of cycles) {
    const notice = noticeOf(cycle.kind);
    events.push({ kind: 'notification-queued', at: cycle.createdAt, cycle: cycle.cycle, notice });
    if (cycle.deliveredAt) events.push({ kind: 'notification-delivered', at: cycle.deliveredAt, cycle: cycle.cycle, notice });
    if (cycle.failedAt) events.push({ kind: 'notification-failed', at: cycle.failedAt, cycle: cycle.cycle, notice });
  }
  for (const attempt of attempts) {
    events.push({
      kind: 'notification-attempt',
      at: attempt.startedAt,
      cycle: cycleOf.get(attempt.notificationId)?.cycle ?? 0,
      notice: noticeOf(cycleOf.get(attempt.notificationId)?.kind ?? 'payment'),
      attemptNo: attempt.attemptNo,
      outcome: attempt.outcome,
      httpStatus: attempt.httpStatus,
      latencyMs: attempt.latencyMs,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
    });
  }
  // Stable by time; on equal times the order above (created, paid, queued, attempt, outcome) is kept.
  const ordered = events.map((event, index) => ({ event, index })).sort((a, b) => a.event.at.getTime() - b.event.at.getTime() || a.index - b.index);

  return {
    order: {
      orderNo: order.orderNo,
      merchantOrderNo: order.merchantOrderNo,
      channel: order.channel,
      status: effectiveStatus(order, now),
      standing: orderStanding(order, now),
      currency: order.currency,
      requestedAmount: formatMinorUnits(order.requestedAmountMinor),
      payAmount: formatMinorUnits(order.payAmountMinor),
      payMethod: order.payMethod,
      productName: order.productName,
      notifyUrl: order.notifyUrl,
      attach: order.attach,
      tradeNo: order.tradeNo,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      closedAt: order.closedAt,
      expiresAt: order.expiresAt,
      isTest: order.isTest,
    },
    notifications: cycles.map((cycle) => ({ notice: noticeOf(cycle.kind), cycle: cycle.cycle, status: cycle.status, attempts: cycle.attemptCount, nextAttemptAt: cycle.nextAttemptAt, lastError: cycle.lastError })),
    timeline: ordered.map(({ event }) => event),
    canResend: order.status === 'paid',
    /** Pending in an open window: the merchant may close it (lib/orders/close-order.ts). */
    canClose: order.status === 'pending' && order.expiresAt.getTime() > now.getTime(),
  };
}
