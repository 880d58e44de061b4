import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { NotifiableOrder } from './notification-form';

export interface ClaimedNotification {
  id: number;
  orderId: number;
  cycle: number;
  attemptNo: number;
  order: NotifiableOrder;
  notifyUrl: string | null;
  appId: string;
  appSecretEncrypted: string;
}

type ClaimRow = {
  id: string;
  order_id: string;
  cycle: number;
  attempt_count: number;
  order_no: string;
  merchant_order_no: string;
  channel: string;
  pay_amount_minor: string;
  paid_at: string | null;
  updated_at: string;
  trade_no: string | null;
  attach: string | null;
  notify_url: string | null;
  app_id: string;
  app_secret_encrypted: string;
};

/**
 * Leases up to `limit` due notifications for one attempt each, in one statement. FOR UPDATE SKIP LOCKED keeps
 * concurrent workers off each other's rows; the lease makes a row claimable again only after its holder died
 * (lease expired), and the attempt it left in flight is closed as abandoned. The attempt number is taken here
 * and (notification, attempt) is unique, so an attempt is delivered once. Returns what the delivery needs.
 */
export async function claimDueNotifications(
  db: Database,
  options: { workerId: string; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedNotification[]> {
  if (options.limit <= 0) return [];
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const { rows } = await db.execute<ClaimRow>(sql`
    WITH due AS (
      SELECT id FROM notifications
      WHERE status = 'pending' AND next_attempt_at <= ${options.now}
        AND (lease_until IS NULL OR lease_until <= ${options.now})
      ORDER BY next_attempt_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    ),
    claimed AS (
      UPDATE notifications n
      SET lease_owner = ${options.workerId}, lease_until = ${leaseUntil}, attempt_count = n.attempt_count + 1
      FROM due WHERE n.id = due.id
      RETURNING n.id, n.order_id, n.cycle, n.attempt_count
    ),
    abandoned AS (
      UPDATE notification_attempts
      SET outcome = 'abandoned', finished_at = ${options.now}, error = 'worker stopped before the attempt finished'
      WHERE outcome = 'in_flight' AND notification_id IN (SELECT id FROM claimed)
    ),
    started AS (
      INSERT INTO notification_attempts (notification_id, attempt_no, worker_id, started_at)
      SELECT id, attempt_count, ${options.workerId}, ${options.now} FROM claimed
    )
    SELECT c.id, c.order_id, c.cycle, c.attempt_count,
           o.order_no, o.merchant_order_no, o.channel, o.pay_amount_minor::text AS pay_amount_minor, o.paid_at, o.updated_at,
           o.trade_no, o.attach, o.notify_url, m.app_id, m.app_secret_encrypted
    FROM claimed c JOIN orders o ON o.id = c.order_id JOIN merchants m ON m.id = o.merchant_id`);
  return rows.map((row) => ({
    id: Number(row.id),
    orderId: Number(row.order_id),
    cycle: row.cycle,
    attemptNo: row.attempt_count,
    notifyUrl: row.notify_url,
    appId: row.app_id,
    appSecretEncrypted: row.app_secret_encrypted,
    order: {
      orderNo: row.order_no,
      merchantOrderNo: row.merchant_order_no,
      channel: row.channel,
      payAmountMinor: BigInt(row.pay_amount_minor),
      paidAt: row.paid_at ? new Date(row.paid_at) : null,
      updatedAt: new Date(row.updated_at),
      tradeNo: row.trade_no,
      attach: row.attach,
    },
  }));
}
