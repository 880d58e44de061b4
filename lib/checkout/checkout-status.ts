import { channelNamed } from '../channels';
import type { CheckoutStatus } from '../channels/channel';
import type { Database } from '../db/client';
import { findCheckoutChannel } from '../orders/checkout-order';

/** The checkout state behind a payUrl token: one lookup of the order's channel, then that channel's own status. */
export async function findCheckoutStatus(db: Database, payToken: string, now: Date): Promise<CheckoutStatus | undefined> {
  const channelName = await findCheckoutChannel(db, payToken);
  return channelName === undefined ? undefined : channelNamed(channelName)?.checkoutStatus(db, payToken, now);
}
