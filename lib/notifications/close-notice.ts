import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, type OrderRow } from '../db/schema';
import { enqueueNotice } from './enqueue';

/** What a close or expiry notice says happened: the order was closed (by the merchant or the payer), or its window ended. */
export type CloseNoticeKind = 'closed' | 'expired';

/** The name a channel's notices give the platform order number: the one its payment notification uses (its contract). */
export type OrderNumberField = 'orderNo' | 'platformOrderNo';

/**
 * What closing orders needs of their channel for the notices: its name (only its orders are closed) and how its
 * notices name an order. The channel declares it (Channel extends it), so the notices need not load the channels.
 */
export interface NoticedChannel {
  readonly name: string;
  readonly orderNumberField: OrderNumberField;
}

/**
 * The close/expiry notice's form before appId and signature (added at each attempt): one shape on every channel,
 * whose `status` (CLOSED or EXPIRED) is never PAID, so a handler that checks `status` never credits it
 * (docs/merchant-api.md, "Close and expiry notices").
 */
export function closeNoticeFields(
  channel: NoticedChannel,
  order: Pick<OrderRow, 'orderNo' | 'merchantOrderNo' | 'channel' | 'attach'>,
  kind: CloseNoticeKind,
  closedAt: Date,
): Record<string, string> {
  return {
    // The order's number under the name its payment notification gives it.
    [channel.orderNumberField]: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    payType: order.channel,
    status: kind === 'closed' ? 'CLOSED' : 'EXPIRED',
    closeTime: String(Math.floor(closedAt.getTime() / 1000)),
    attach: order.attach ?? '',
  };
}

/**
 * Inside the transaction that closed `closed` (orders of `channel`): a notice to each order's notifyUrl, only for
 * merchants who opted in (merchants.close_notices) and orders that have a notifyUrl. The payment outbox delivers it
 * (retry plan, circuit breaker, attempt log).
 */
export async function enqueueCloseNotices(tx: Database, channel: NoticedChannel, closed: readonly OrderRow[], kind: CloseNoticeKind, now: Date): Promise<void> {
  const candidates = closed.filter((order) => order.notifyUrl);
  if (candidates.length === 0) return;
  const merchantIds = [...new Set(candidates.map((order) => order.merchantId))];
  const optedIn = await tx
    .select({ id: merchants.id })
    .from(merchants)
    .where(and(inArray(merchants.id, merchantIds), eq(merchants.closeNotices, true)));
  const wanted = new Set(optedIn.map(({ id }) => id));
  for (const order of candidates) {
    if (!wanted.has(order.merchantId)) continue;
    await enqueueNotice(tx, { orderId: order.id, kind, subject: '', notifyUrl: order.notifyUrl, fields: closeNoticeFields(channel, order, kind, order.closedAt ?? now) }, now);
  }
}
