import { eq } from 'drizzle-orm';
import { channelNamed, type ChannelName } from '../channels';
import type { CheckoutStatus } from '../channels/channel';
import type { Database } from '../db/client';
import { orders } from '../db/schema';

/** Which channel's checkout a payUrl token opens; the channel's own view then loads what it shows. */
export async function findCheckoutChannel(db: Database, payToken: string): Promise<ChannelName | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(payToken)) return undefined;
  const [row] = await db.select({ channel: orders.channel }).from(orders).where(eq(orders.payToken, payToken)).limit(1);
  return row && channelNamed(row.channel) ? (row.channel as ChannelName) : undefined;
}

/** The checkout state behind a payUrl token: one lookup of the order's channel, then that channel's view. */
export async function findCheckoutStatus(db: Database, payToken: string, now: Date): Promise<CheckoutStatus | undefined> {
  const name = await findCheckoutChannel(db, payToken);
  return name === undefined ? undefined : channelNamed(name)!.checkoutStatus(db, payToken, now);
}
