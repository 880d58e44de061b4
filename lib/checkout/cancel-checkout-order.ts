import { channelNamed } from '../channels';
import type { Database } from '../db/client';
import { isDomainError } from '../errors/domain-error';
import { findOrderByPayToken } from '../orders/find-order';
import { closeOrder } from '../orders/close-order';

/** Where the payer goes after asking to cancel: the merchant's redirectUrl once the order is closed, else back to the checkout. */
export type CancelOutcome = { found: false } | { found: true; closed: boolean; redirectUrl: string | null };

/**
 * The payer cancels at the checkout ("cancel and return"): the same close as the merchant's (the upstream first; a
 * payment it reports wins), audited as the payer. A paid or expired order is not closed: the checkout shows its state.
 * An upstream that cannot be asked leaves the order pending (logged; the payer sees it still payable).
 */
export async function cancelCheckoutOrder(db: Database, payToken: string, now: Date): Promise<CancelOutcome> {
  const order = await findOrderByPayToken(db, payToken);
  const channel = order && channelNamed(order.channel);
  if (!order || !channel) return { found: false };
  try {
    await closeOrder(db, channel, order, { actor: 'payer', byPayer: true, now });
    return { found: true, closed: true, redirectUrl: order.redirectUrl };
  } catch (error) {
    if (!isDomainError(error, 'order_not_closable', 'upstream_failure')) throw error;
    if (isDomainError(error, 'upstream_failure')) console.error(`checkout: cancel of ${order.orderNo} not done: ${error.message}`);
    return { found: true, closed: false, redirectUrl: null };
  }
}
