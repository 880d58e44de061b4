import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications } from '../db/schema';

export const NOTIFICATION_CHANNEL = 'notification_due';

/**
 * Writes a delivery cycle due now, inside the caller's transaction, and wakes the workers on commit
 * (NOTIFY is delivered only when the transaction commits).
 */
export async function enqueueNotification(tx: Database, orderId: number, cycle: number, now: Date): Promise<number | undefined> {
  const [row] = await tx
    .insert(notifications)
    .values({ orderId, cycle, nextAttemptAt: now, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (row) await tx.execute(sql`SELECT pg_notify(${NOTIFICATION_CHANNEL}, ${String(row.id)})`);
  return row?.id;
}
