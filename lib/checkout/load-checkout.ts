import type { Database } from '../db/client';
import { isChannelName, loadCheckoutView, type ChannelCheckoutView } from '../channels';
import { findCheckoutOrder, type CheckoutMerchant } from './checkout-merchant';

/**
 * An order that can no longer be paid answers its payUrl with the expired view for a day (the payer may still be on
 * it, or come back to check), and after that as gone (410): nothing about an old order is worth showing any more.
 */
export const GONE_AFTER_MS = 24 * 60 * 60 * 1000;

export type LoadedCheckout =
  | { kind: 'unknown' }
  | { kind: 'gone'; merchant: CheckoutMerchant; redirectUrl: string | null }
  | ({ kind: 'live'; merchant: CheckoutMerchant } & ChannelCheckoutView);

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
  return live ? { kind: 'live', merchant, ...live } : { kind: 'unknown' };
}
