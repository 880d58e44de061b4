import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notifications, type OrderRow } from '../db/schema';
import { destinationOf } from './destination';
import type { NotificationKind } from '../db/schema/notification-kinds';
import { RETRY_HORIZON_MS } from './retry-plan';

export const NOTIFICATION_CHANNEL = 'notification_due';

/** A notice other than a payment's: its own form (unsigned) and its own destination URL. */
export interface Notice {
  orderId: number;
  kind: Exclude<NotificationKind, 'payment'>;
  /** What it is about within the order (a refund's id); '' for the order itself. */
  subject: string;
  /** Where it goes; null sends nothing (the cycle fails at once, visibly). */
  notifyUrl: string | null;
  /** The form without appId and signature, which are added at each attempt. */
  fields: Record<string, string>;
}

async function insertCycle(tx: Database, values: Omit<typeof notifications.$inferInsert, 'nextAttemptAt' | 'createdAt'>, now: Date): Promise<number | undefined> {
  const [row] = await tx
    .insert(notifications)
    .values({
      ...values,
      nextAttemptAt: now,
      createdAt: now,
      // `now` may be the upstream's event time, long past when it is confirmed late: the plan starts today.
      giveUpAt: new Date(Math.max(now.getTime(), Date.now()) + RETRY_HORIZON_MS),
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (row) await tx.execute(sql`SELECT pg_notify(${NOTIFICATION_CHANNEL}, ${String(row.id)})`);
  return row?.id;
}

/**
 * Writes a payment notice's delivery cycle due now, inside the caller's transaction, and wakes the workers on commit
 * (NOTIFY is delivered only when the transaction commits).
 */
export function enqueueNotification(tx: Database, order: Pick<OrderRow, 'id' | 'notifyUrl'>, cycle: number, now: Date): Promise<number | undefined> {
  return insertCycle(tx, { orderId: order.id, cycle, destination: destinationOf(order.notifyUrl) }, now);
}

/**
 * Writes the first delivery cycle of another kind of notice, inside the caller's transaction (the one that records
 * the event): the same outbox, retry plan, circuit breaker and attempt log as payments. Writing it twice writes one.
 */
export function enqueueNotice(tx: Database, notice: Notice, now: Date, cycle = 1): Promise<number | undefined> {
  return insertCycle(
    tx,
    { orderId: notice.orderId, kind: notice.kind, subject: notice.subject, notifyUrl: notice.notifyUrl, fields: notice.fields, cycle, destination: destinationOf(notice.notifyUrl) },
    now,
  );
}
