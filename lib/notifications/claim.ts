import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { NotifiableOrder } from './notification-form';
import type { NotificationKind } from '../db/schema/notification-kinds';
import { observeCreditedToNotified } from '../observability/metrics';

export interface ClaimedNotification {
  id: number;
  orderId: number;
  cycle: number;
  attemptNo: number;
  kind: NotificationKind;
  /** The unsigned form of a notice other than a payment; null for a payment, whose form is built from `order`. */
  fields: Record<string, string> | null;
  order: NotifiableOrder;
  notifyUrl: string | null;
  destination: string | null;
  giveUpAt: Date | null;
  appId: string;
  appSecretEncrypted: string;
  /** The request id of the submit that created the order: its attempts' log lines name it. */
  requestId: string | null;
}

type ClaimRow = {
  id: string;
  order_id: string;
  cycle: number;
  attempt_count: number;
  destination: string | null;
  give_up_at: string | null;
  kind: NotificationKind;
  fields: Record<string, string> | null;
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
  request_id: string | null;
  queued_at: string;
  chain_type: string | null;
  paid_via: string | null;
};

/** Attempts one worker keeps in flight to one destination at most (of its 16 slots by default). */
export const PER_DESTINATION_LIMIT = 4;

/** A notification row `n` that an attempt may be made for at `now`: pending, due, and not leased to a live worker. */
export function notificationDueNow(now: Date): SQL {
  return sql`n.status = 'pending' AND n.next_attempt_at <= ${now} AND (n.lease_until IS NULL OR n.lease_until <= ${now})`;
}

/**
 * Leases up to `limit` due notifications for one attempt each, in one statement. FOR UPDATE SKIP LOCKED keeps
 * concurrent workers off each other's rows; the lease makes a row claimable again only after its holder died
 * (lease expired), and the attempt it left in flight is closed as abandoned. The attempt number is taken here
 * and (notification, attempt) is unique, so an attempt is delivered once. Returns what the delivery needs.
 *
 * Fair between destinations, whatever the number of worker processes, because it is decided here:
 * - a destination with `perDestination` attempts of this worker in flight gets no more from it, and the claim
 *   takes the oldest due notification of each destination first, then the second of each, and so on;
 * - a destination whose circuit is open (notification_destinations) gets nothing: its notifications wait, and
 *   their attempts are not used up. Once the circuit's time is over, one notification is claimed as its probe
 *   (`probe_until`, taken under the destination's row lock, admits one worker) and the rest wait for its outcome.
 */
export async function claimDueNotifications(
  db: Database,
  options: { workerId: string; now: Date; leaseMs: number; limit: number; perDestination?: number },
): Promise<ClaimedNotification[]> {
  if (options.limit <= 0) return [];
  const { now, workerId } = options;
  const perDestination = options.perDestination ?? PER_DESTINATION_LIMIT;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const { rows } = await db.execute<ClaimRow>(sql`
    WITH RECURSIVE mine AS (
      SELECT destination, count(*)::int AS in_flight FROM notifications
      WHERE lease_owner = ${workerId} AND status = 'pending' AND lease_until > ${now}
      GROUP BY destination
    ),
    circuits AS (
      SELECT destination, (open_until > ${now} OR coalesce(probe_until > ${now}, false)) AS shut
      FROM notification_destinations WHERE open_until IS NOT NULL
    ),
    -- Every destination with notifications pending, one index step each (a loose scan): the claim's cost grows with
    -- the number of destinations, not with the backlog of one of them.
    destinations AS (
      (SELECT destination FROM notifications WHERE status = 'pending' AND destination IS NOT NULL ORDER BY destination LIMIT 1)
      UNION ALL
      SELECT (SELECT n.destination FROM notifications n WHERE n.status = 'pending' AND n.destination > d.destination ORDER BY n.destination LIMIT 1)
      FROM destinations d WHERE d.destination IS NOT NULL
    ),
    -- Those this worker may claim for now, the longest waiting first.
    eligible AS (
      SELECT d.destination, coalesce(m.in_flight, 0) AS in_flight, c.destination IS NOT NULL AS probe
      FROM destinations d
      LEFT JOIN mine m ON m.destination = d.destination
      LEFT JOIN circuits c ON c.destination = d.destination
      CROSS JOIN LATERAL (
        SELECT n.next_attempt_at FROM notifications n
        WHERE n.destination = d.destination AND ${notificationDueNow(now)}
        ORDER BY n.next_attempt_at LIMIT 1
      ) oldest
      WHERE d.destination IS NOT NULL AND c.shut IS NOT TRUE
        AND coalesce(m.in_flight, 0) < CASE WHEN c.destination IS NOT NULL THEN 1 ELSE ${perDestination} END
      ORDER BY oldest.next_attempt_at
      LIMIT ${options.limit}
    ),
    candidates AS (
      SELECT due.id, e.destination, due.next_attempt_at, e.probe, e.in_flight
      FROM eligible e CROSS JOIN LATERAL (
        SELECT n.id, n.next_attempt_at FROM notifications n
        WHERE n.destination = e.destination AND ${notificationDueNow(now)}
        ORDER BY n.next_attempt_at LIMIT ${perDestination}
        FOR UPDATE SKIP LOCKED
      ) due
      UNION ALL
      -- Orders without a usable notifyUrl fail at once; they share one cap.
      SELECT nowhere.id, NULL, nowhere.next_attempt_at, false, (SELECT in_flight FROM mine WHERE destination IS NULL)
      FROM (
        SELECT n.id, n.next_attempt_at FROM notifications n
        WHERE n.destination IS NULL AND ${notificationDueNow(now)}
        ORDER BY n.next_attempt_at LIMIT ${perDestination}
        FOR UPDATE SKIP LOCKED
      ) nowhere
    ),
    ranked AS (
      SELECT id, destination, next_attempt_at, probe,
             coalesce(in_flight, 0) + row_number() OVER (PARTITION BY destination ORDER BY next_attempt_at, id) AS slot
      FROM candidates
    ),
    picked AS (
      SELECT id, destination, probe FROM ranked
      WHERE slot <= CASE WHEN probe THEN 1 ELSE ${perDestination} END
      ORDER BY slot, next_attempt_at
      LIMIT ${options.limit}
    ),
    probes AS (
      UPDATE notification_destinations d SET probe_until = ${leaseUntil}
      WHERE d.destination IN (SELECT destination FROM picked WHERE probe)
        AND d.open_until <= ${now} AND (d.probe_until IS NULL OR d.probe_until <= ${now})
      RETURNING d.destination
    ),
    claimed AS (
      UPDATE notifications n
      SET lease_owner = ${workerId}, lease_until = ${leaseUntil}, attempt_count = n.attempt_count + 1
      FROM picked p
      WHERE n.id = p.id AND (NOT p.probe OR p.destination IN (SELECT destination FROM probes))
      RETURNING n.id, n.order_id, n.cycle, n.attempt_count, n.destination, n.give_up_at, n.kind, n.fields, n.notify_url, n.created_at
    ),
    abandoned AS (
      UPDATE notification_attempts
      SET outcome = 'abandoned', finished_at = ${now}, error = 'worker stopped before the attempt finished'
      WHERE outcome = 'in_flight' AND notification_id IN (SELECT id FROM claimed)
    ),
    started AS (
      INSERT INTO notification_attempts (notification_id, attempt_no, worker_id, started_at)
      SELECT id, attempt_count, ${workerId}, ${now} FROM claimed
    )
    -- A payment notice goes to the order's notifyUrl; any other kind only to its own (never the order's).
    SELECT c.id, c.order_id, c.cycle, c.attempt_count, c.destination, c.give_up_at, c.kind, c.fields, o.request_id,
           o.order_no, o.merchant_order_no, o.channel, o.pay_amount_minor::text AS pay_amount_minor, o.paid_at, o.updated_at,
           o.trade_no, o.attach, CASE WHEN c.kind = 'payment' THEN o.notify_url ELSE c.notify_url END AS notify_url,
           m.app_id, m.app_secret_encrypted, c.created_at AS queued_at, o.chain_type, o.paid_via
    FROM claimed c JOIN orders o ON o.id = c.order_id JOIN merchants m ON m.id = o.merchant_id`);
  for (const row of rows) {
    // A chain payment's notice is queued in the statement that credits the order: its first attempt starting now is
    // the credited → notified time.
    if (row.kind === 'payment' && row.attempt_count === 1 && row.paid_via === 'chain') observeCreditedToNotified(row.chain_type, new Date(row.queued_at), now);
  }
  return rows.map((row) => ({
    id: Number(row.id),
    orderId: Number(row.order_id),
    cycle: row.cycle,
    attemptNo: row.attempt_count,
    kind: row.kind,
    fields: row.fields,
    notifyUrl: row.notify_url,
    destination: row.destination,
    giveUpAt: row.give_up_at ? new Date(row.give_up_at) : null,
    appId: row.app_id,
    appSecretEncrypted: row.app_secret_encrypted,
    requestId: row.request_id,
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
