import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';

/** The channel (orders.channel) of the order a payUrl token opens; undefined when the token opens none. */
export async function findCheckoutChannel(db: Database, payToken: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(payToken)) return undefined;
  const [row] = await db.select({ channel: orders.channel }).from(orders).where(eq(orders.payToken, payToken)).limit(1);
  return row?.channel;
}
