import { eq } from 'drizzle-orm';
import { recordAudit } from '../audit/record-audit';
import type { Database } from '../db/client';
import { orders, type OrderRow } from '../db/schema';
import { DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { enqueueCloseNotices, type NoticedChannel } from '../notifications/close-notice';
import { closeOpenOrder } from './order-status';

/** What closing an order at its upstream came to. */
export type UpstreamClose =
  /** The upstream will take no payment for it any more, or never had it; `detail` says which, for the audit log. */
  | { outcome: 'closed'; detail: string }
  /** The upstream reported the order paid: the channel settled it through the paid path (the merchant is notified). */
  | { outcome: 'paid' };

/**
 * What the close needs of the order's channel: its name and how its notices name the order, and how its upstream
 * closes an order (absent: nothing upstream).
 */
export interface ClosingChannel extends NoticedChannel {
  /**
   * Closes the order at the upstream, or learns it was paid there (a paid answer wins: the channel settles the payment
   * and answers 'paid'). Throws an upstream_failure DomainError when the upstream refuses or cannot be asked; the order
   * then stays pending here.
   */
  readonly closeUpstream?: (db: Database, order: OrderRow, now: Date) => Promise<UpstreamClose>;
}

export interface CloseRequest {
  /** Who closes it, for the audit log: `merchant-api:<appId>`, `merchant:<email>` (portal), `payer` (checkout). */
  actor: string;
  /** The payer cancelling at the checkout (stored as 'cancelled'); else the merchant closes it ('closed'). */
  byPayer?: boolean;
  now: Date;
}

function notClosable(order: OrderRow, state: 'paid' | 'expired'): DomainError {
  return new DomainError('order_not_closable', {
    message: `order ${order.orderNo} is ${state}: only a pending order can be closed`,
    userMessage: domainMessage('orders.notClosable', { state }),
  });
}

/** 'open' when the order may be closed now, 'closed' when someone closed it already (a repeat answers the same); else refused naming its state. */
function closability(order: OrderRow, now: Date): 'open' | 'closed' {
  if (order.status === 'paid') throw notClosable(order, 'paid');
  if (order.status === 'closed' && (order.closeReason === 'closed' || order.closeReason === 'cancelled')) return 'closed';
  if (order.status === 'closed' || order.expiresAt.getTime() <= now.getTime()) throw notClosable(order, 'expired');
  return 'open';
}

async function reread(db: Database, order: OrderRow): Promise<OrderRow> {
  const [current] = await db.select().from(orders).where(eq(orders.id, order.id)).limit(1);
  return current!;
}

/**
 * The one close of a pending order, whoever asks (the merchant through the open API or the portal, the payer at the
 * checkout): the upstream first, so that nobody can pay it there any more (a payment the upstream reports wins and the
 * order becomes paid, never closed), then here by a conditional update that a concurrent payment or expiry wins, with
 * its audit entry and (for a merchant who opted in) its close notice in the same transaction. Closing a closed order answers it again; a paid or expired one is refused
 * naming its state (order_not_closable). Answers the closed order.
 */
export async function closeOrder(db: Database, channel: ClosingChannel, order: OrderRow, request: CloseRequest): Promise<OrderRow> {
  const { actor, now } = request;
  if (closability(order, now) === 'closed') return order;
  const upstream: UpstreamClose = channel.closeUpstream ? await channel.closeUpstream(db, order, now) : { outcome: 'closed', detail: 'closed here (no upstream order)' };
  if (upstream.outcome === 'paid') {
    const current = await reread(db, order);
    closability(current, now);
    // The channel settled a payment that the paid path did not record (a mismatch it reported to the operator).
    throw new DomainError('upstream_failure', { message: `the upstream reports order ${order.orderNo} paid; it stays pending for the operator` });
  }
  const closed = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const row = await closeOpenOrder(tx, order.id, now, request.byPayer ? 'cancelled' : 'closed');
    if (!row) return undefined;
    await enqueueCloseNotices(tx, channel, [row], 'closed', now);
    await recordAudit(tx, {
      actor,
      action: 'order.close',
      subject: `order:${order.orderNo}`,
      before: { status: 'pending', expiresAt: order.expiresAt.toISOString() },
      after: { status: 'closed', closedAt: now.toISOString(), upstream: upstream.detail },
    });
    return row;
  });
  if (closed) return closed;
  // A payment or the expiry got there first (or another close did).
  const current = await reread(db, order);
  closability(current, now);
  return current;
}
