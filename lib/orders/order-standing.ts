import type { OrderRow } from '../db/schema';
import { currentDate } from '../clock';
import { effectiveStatus } from './effective-status';

/*
 * What every page says an order is (the portal's list and detail, the operator console, the checkout): its effective
 * status, told apart by why it ended and by how much of it was refunded. Computed from the row and the clock only, so
 * that the checkout's bundle can import it too. The wire statuses stay those of effective-status.ts.
 */

/** A paid order's refunds as its badge says them; a new refund outcome is one more member here and its words. */
export const REFUND_STANDINGS = ['partially_refunded', 'refunded'] as const;
export type RefundStanding = (typeof REFUND_STANDINGS)[number];

/** Why an order ended: its window ran out, the merchant closed it, the payer cancelled it. */
export const END_REASONS = ['expired', 'closed', 'cancelled'] as const;
export type EndReason = (typeof END_REASONS)[number];

export const ORDER_STANDINGS = ['pending', 'paid', ...REFUND_STANDINGS, ...END_REASONS] as const;
export type OrderStanding = (typeof ORDER_STANDINGS)[number];

/** The standing's tone wherever a badge shows it: waiting, done, refunded (money went back), ended unpaid. */
export const STANDING_TONES: Record<OrderStanding, 'waiting' | 'done' | 'refunded' | 'ended'> = {
  pending: 'waiting',
  paid: 'done',
  partially_refunded: 'refunded',
  refunded: 'refunded',
  expired: 'ended',
  closed: 'ended',
  cancelled: 'ended',
};

type StandingFields = Pick<OrderRow, 'status' | 'expiresAt' | 'closeReason' | 'payAmountMinor' | 'refundedMinor'>;

/** A paid order's refunds: all of it refunded, part of it, or none (undefined). Only refunds that succeeded count. */
export function refundStanding(order: Pick<OrderRow, 'payAmountMinor' | 'refundedMinor'>): RefundStanding | undefined {
  if (order.refundedMinor <= 0n) return undefined;
  return order.refundedMinor >= order.payAmountMinor ? 'refunded' : 'partially_refunded';
}

/** Why an order that can no longer be paid ended (a pending order past its window expired, even before the job wrote so). */
export function endReason(order: Pick<OrderRow, 'status' | 'closeReason'>): EndReason {
  return order.status === 'closed' && (order.closeReason === 'closed' || order.closeReason === 'cancelled') ? order.closeReason : 'expired';
}

/** THE standing of an order at `now`. */
export function orderStanding(order: StandingFields, now = currentDate()): OrderStanding {
  const status = effectiveStatus(order, now);
  if (status === 'pending') return 'pending';
  if (status === 'paid') return refundStanding(order) ?? 'paid';
  return endReason(order);
}
