import type { Database } from '../db/client';
import { isChannelName, loadCheckoutView, type ChannelCheckoutView } from '../channels';
import { findCheckoutOrder, type CheckoutMerchant } from './checkout-merchant';
import { effectiveStatus } from '../orders/effective-status';
import { endReason, type EndReason } from '../orders/order-standing';

/**
 * An order that can no longer be paid answers its payUrl with the expired view for a day (the payer may still be on
 * it, or come back to check), and after that as gone (410): nothing about an old order is worth showing any more.
 */
export const GONE_AFTER_MS = 24 * 60 * 60 * 1000;

export type LoadedCheckout =
  | { kind: 'unknown' }
  | { kind: 'gone'; merchant: CheckoutMerchant; redirectUrl: string | null }
  | ({ kind: 'live'; merchant: CheckoutMerchant; ending: CheckoutEnding | null } & ChannelCheckoutView);

/** How an order that can no longer be paid ended, and what it was for: every channel's closed page says both. */
export interface CheckoutEnding {
  reason: EndReason;
  amount: string;
}

export function isGone(order: { status: string; expiresAt: Date }, now: Date): boolean {
  return order.status !== 'paid' && order.expiresAt.getTime() + GONE_AFTER_MS <= now.getTime();
}

/** Everything a payUrl shows, by its token: which channel's view, the merchant's branding, or unknown / gone. */
export async function loadCheckout(db: Database, payToken: string, now = new Date()): Promise<LoadedCheckout> {
  const order = await findCheckoutOrder(db, payToken);
  if (!order) return { kind: 'unknown' };
  const { merchant } = order;
  if (isGone(order, now)) return { kind: 'gone', merchant, redirectUrl: order.redirectUrl };
  const live = isChannelName(order.channel) ? await loadCheckoutView(order.channel, db, payToken, now) : undefined;
  const ending = effectiveStatus(order, now) === 'closed' ? { reason: endReason(order), amount: order.amount } : null;
  return live ? { kind: 'live', merchant, ending, ...live } : { kind: 'unknown' };
}
