import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { NotificationKind } from '../db/schema/notification-kinds';
import { listStuckRefunds } from './stuck-refunds';
import { merchants, notifications, orders, upstreamCallbacks } from '../db/schema';
import { CHANNELS } from '../channels';
import { UNEVENTFUL_VERDICTS } from '../channels/list-upstream-callbacks';
import { listServiceProblems } from './service-problems';
import { listSignInLockouts } from '../accounts/sign-in-lockouts';
import { openFindings } from '../reconciliation/reconciliation-view';
import { ATTENTION_LIST_LIMIT, linkedOrderColumns, notDismissed, withLinkedOrder, type LinkedOrder } from '../channels/attention-items';

export { ATTENTION_KINDS, TRANSFER_ATTENTION_VERDICTS, type AttentionKind, type LinkedOrder, type TransferItem } from '../channels/attention-items';

/**
 * The payments that need an operator: transfers a channel read itself (on a chain) that paid nothing (no order open,
 * a short/over amount, the exact amount after the window), upstream callbacks that failed verification or did not
 * match, notifications that failed every attempt (with no newer cycle), and the differences the daily
 * reconciliation found that no operator has credited (they leave when credited or when a new run no longer finds
 * them), and the accounts whose sign-ins are locked now (they leave when unlocked or when the day's lock ends). An
 * item leaves the list when an operator dismisses it (with a note) or, for notifications, resends it.
 */

export interface CallbackItem {
  id: number;
  channel: string;
  kind: string;
  verdict: string;
  detail: string | null;
  outTradeNo: string | null;
  tradeNo: string | null;
  receivedAt: Date;
  order: LinkedOrder | null;
}

export interface NotificationItem {
  id: number;
  cycle: number;
  attempts: number;
  lastError: string | null;
  failedAt: Date | null;
  kind: NotificationKind;
  notifyUrl: string | null;
  order: LinkedOrder;
}

/** The transfers of every channel that reads payments itself, in the registry's order. */
async function listTransferItems(db: Database) {
  const lists = await Promise.all(CHANNELS.map((channel) => channel.attentionTransfers?.(db) ?? []));
  return lists.flat();
}

export async function listCallbackItems(db: Database): Promise<CallbackItem[]> {
  const rows = await db
    .select({
      id: upstreamCallbacks.id,
      channel: upstreamCallbacks.channel,
      kind: upstreamCallbacks.kind,
      verdict: upstreamCallbacks.verdict,
      detail: upstreamCallbacks.detail,
      outTradeNo: upstreamCallbacks.outTradeNo,
      tradeNo: upstreamCallbacks.tradeNo,
      receivedAt: upstreamCallbacks.receivedAt,
      ...linkedOrderColumns,
    })
    .from(upstreamCallbacks)
    .leftJoin(orders, eq(orders.id, upstreamCallbacks.orderId))
    .leftJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(and(notInArray(upstreamCallbacks.verdict, UNEVENTFUL_VERDICTS), notDismissed('callback', upstreamCallbacks.id)))
    .orderBy(desc(upstreamCallbacks.id))
    .limit(ATTENTION_LIST_LIMIT);
  return rows.map(withLinkedOrder);
}

export async function listNotificationItems(db: Database): Promise<NotificationItem[]> {
  const rows = await db
    .select({
      id: notifications.id,
      cycle: notifications.cycle,
      attempts: notifications.attemptCount,
      lastError: notifications.lastError,
      failedAt: notifications.failedAt,
      kind: notifications.kind,
      notifyUrl: sql<string | null>`CASE WHEN ${notifications.kind} = 'payment' THEN ${orders.notifyUrl} ELSE ${notifications.notifyUrl} END`,
      ...linkedOrderColumns,
    })
    .from(notifications)
    .innerJoin(orders, eq(orders.id, notifications.orderId))
    .innerJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(
      and(
        eq(notifications.status, 'failed'),
        sql`NOT EXISTS (SELECT 1 FROM notifications newer WHERE newer.order_id = ${notifications.orderId} AND newer.kind = ${notifications.kind} AND newer.subject = ${notifications.subject} AND newer.cycle > ${notifications.cycle})`,
        notDismissed('notification', notifications.id),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(ATTENTION_LIST_LIMIT);
  // An inner join: every failed notification names its order.
  return rows.map((row) => {
    const { order, ...own } = withLinkedOrder(row);
    return { ...own, order: order! };
  });
}

export async function listAttention(db: Database, now = new Date()) {
  const [service, transfers, callbacks, failedNotifications, stuckRefunds, findings, signIns] = await Promise.all([
    listServiceProblems(db, now),
    listTransferItems(db),
    listCallbackItems(db),
    listNotificationItems(db),
    listStuckRefunds(db, now),
    openFindings(db, ATTENTION_LIST_LIMIT),
    listSignInLockouts(db, now, ATTENTION_LIST_LIMIT),
  ]);
  return { service, transfers, callbacks, notifications: failedNotifications, refunds: stuckRefunds, findings, signIns };
}

export type AttentionList = Awaited<ReturnType<typeof listAttention>>;
