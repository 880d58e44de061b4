import type { OrderRow } from '../db/schema';
import type { OrderStatus } from '../db/schema/orders';
import { currentDate } from '../clock';

/*
 * An order's state as every surface shows it, computed from its stored state and the clock only: no database, no
 * metrics, so that pages' bundles (the checkout) can import it too. Changes of state are in order-status.ts.
 */

/**
 * THE state of an order at `now`, the one every surface shows: the portal's list and detail, the operator console,
 * the checkout (data-order-state) and each channel's query answer are all derived from it. A pending order past its
 * window is closed even before the expiry job has written so.
 */
export function effectiveStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = currentDate()): OrderStatus {
  if (order.status === 'paid') return 'paid';
  if (order.status === 'closed' || order.expiresAt.getTime() <= now.getTime()) return 'closed';
  return 'pending';
}

/** The status as the contract's text channels answer it: '0' pending, '1' paid, '2' closed. */
export type TextWireStatus = '0' | '1' | '2';

export function textWireStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = currentDate()): TextWireStatus {
  return ({ pending: '0', paid: '1', closed: '2' } as const)[effectiveStatus(order, now)];
}

/** The status as the contract's numeric channels answer it: 1 pending, 2 paid, 3 closed. */
export type NumericWireStatus = 1 | 2 | 3;

export function numericWireStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = currentDate()): NumericWireStatus {
  return ({ pending: 1, paid: 2, closed: 3 } as const)[effectiveStatus(order, now)];
}

/** The checkout's name of the effective status ('expired' is its key for closed: its page, script and poll answer). */
export function checkoutState(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = currentDate()): 'pending' | 'paid' | 'expired' {
  const status = effectiveStatus(order, now);
  return status === 'closed' ? 'expired' : status;
}

/** The effective status behind a checkout state, as the page's data-order-state names it. */
export function statusOfCheckoutState(state: 'pending' | 'paid' | 'expired'): OrderStatus {
  return state === 'expired' ? 'closed' : state;
}
