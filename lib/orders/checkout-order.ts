import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders } from '../db/schema';

/** Which channel's checkout a payUrl token opens; the channel's own view then loads what it shows. */
export async function findCheckoutChannel(db: Database, payToken: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(payToken)) return undefined;
  const [row] = await db.select({ channel: orders.channel }).from(orders).where(eq(orders.payToken, payToken)).limit(1);
  return row?.channel;
}
