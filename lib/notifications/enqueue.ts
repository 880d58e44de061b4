import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications, type OrderRow } from '../db/schema';
import { destinationOf } from './destination';
import { RETRY_HORIZON_MS } from './retry-plan';

export const NOTIFICATION_CHANNEL = 'notification_due';

/**
 * Writes a delivery cycle due now, inside the caller's transaction, and wakes the workers on commit
 * (NOTIFY is delivered only when the transaction commits).
 */
export async function enqueueNotification(tx: Database, order: Pick<OrderRow, 'id' | 'notifyUrl'>, cycle: number, now: Date): Promise<number | undefined> {
  const [row] = await tx
    .insert(notifications)
    .values({
      orderId: order.id,
      cycle,
      nextAttemptAt: now,
      createdAt: now,
      destination: destinationOf(order.notifyUrl),
      // `now` may be the upstream's payment time, long past when a payment is confirmed late: the plan starts today.
      giveUpAt: new Date(Math.max(now.getTime(), Date.now()) + RETRY_HORIZON_MS),
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (row) await tx.execute(sql`SELECT pg_notify(${NOTIFICATION_CHANNEL}, ${String(row.id)})`);
  return row?.id;
}
