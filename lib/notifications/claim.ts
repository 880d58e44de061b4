import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

export interface ClaimedNotification {
  id: number;
  orderId: number;
  cycle: number;
  attemptNo: number;
}

/**
 * Leases up to `limit` due notifications for one attempt each. FOR UPDATE SKIP LOCKED keeps concurrent workers
 * off each other's rows; the lease makes a row claimable again only after its holder died (lease expired).
 * The attempt number is taken here, and (notification, attempt) is unique, so an attempt is delivered once.
 */
export async function claimDueNotifications(
  db: Database,
  options: { workerId: string; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedNotification[]> {
  if (options.limit <= 0) return [];
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string; order_id: string; cycle: number; attempt_count: number }>(sql`
      WITH due AS (
        SELECT id FROM notifications
        WHERE status = 'pending' AND next_attempt_at <= ${options.now}
          AND (lease_until IS NULL OR lease_until <= ${options.now})
        ORDER BY next_attempt_at
        LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE notifications n
      SET lease_owner = ${options.workerId}, lease_until = ${leaseUntil}, attempt_count = n.attempt_count + 1
      FROM due WHERE n.id = due.id
      RETURNING n.id, n.order_id, n.cycle, n.attempt_count`);
    if (rows.length === 0) return [];
    const ids = rows.map((row) => Number(row.id));
    // An attempt left in flight by a worker that died is closed as abandoned; it counts as an attempt.
    await tx.execute(sql`
      UPDATE notification_attempts SET outcome = 'abandoned', finished_at = ${options.now}, error = 'worker stopped before the attempt finished'
      WHERE outcome = 'in_flight' AND notification_id = ANY(${sql.raw(`ARRAY[${ids.join(',')}]::bigint[]`)})`);
    for (const row of rows) {
      await tx.execute(sql`
        INSERT INTO notification_attempts (notification_id, attempt_no, worker_id, started_at)
        VALUES (${row.id}, ${row.attempt_count}, ${options.workerId}, ${options.now})`);
    }
    return rows.map((row) => ({ id: Number(row.id), orderId: Number(row.order_id), cycle: row.cycle, attemptNo: row.attempt_count }));
  });
}
