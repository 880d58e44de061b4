import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

export interface FailingDestination {
  /** host[:port] of the notifyUrl */
  destination: string;
  consecutiveFailures: number;
  /** First unanswered attempt of the current run of failures. */
  failingSince: Date | null;
  /** 'open': held back (until openUntil, then one probe); 'probing': the probe is in flight; 'closed': failing, not yet held back. */
  circuit: 'open' | 'probing' | 'closed';
  openUntil: Date | null;
  lastError: string | null;
  lastFailureAt: Date | null;
  /** Notifications still to deliver there (of the merchant, when asked for one). */
  pending: number;
  /** "name (appId)" of the merchants with notifications pending there (operator view only). */
  merchants: string[];
}

type Row = {
  destination: string;
  consecutive_failures: number;
  failing_since: string | null;
  open_until: string | null;
  probe_until: string | null;
  last_error: string | null;
  last_failure_at: string | null;
  pending: number;
  merchants: string[] | null;
};

const date = (value: string | null) => (value ? new Date(value) : null);

/**
 * Destinations failing now (unanswered attempts since the last answer), with their circuit and what waits for them,
 * worst first. Given a merchant, only the destinations its pending notifications are held for, counted for it alone.
 */
export async function failingDestinations(db: Database, now: Date, options: { merchantId?: number } = {}): Promise<FailingDestination[]> {
  const merchantId = options.merchantId ?? null;
  const { rows } = await db.execute<Row>(sql`
    WITH waiting AS (
      SELECT n.destination, count(*)::int AS pending, array_agg(DISTINCT m.name || ' (' || m.app_id || ')') AS merchants
      FROM notifications n JOIN orders o ON o.id = n.order_id JOIN merchants m ON m.id = o.merchant_id
      WHERE n.status = 'pending' AND (${merchantId}::bigint IS NULL OR o.merchant_id = ${merchantId}::bigint)
        AND n.destination IN (SELECT destination FROM notification_destinations WHERE consecutive_failures > 0)
      GROUP BY n.destination
    )
    SELECT d.destination, d.consecutive_failures, d.failing_since::text, d.open_until::text, d.probe_until::text,
           d.last_error, d.last_failure_at::text, coalesce(w.pending, 0) AS pending, w.merchants
    FROM notification_destinations d LEFT JOIN waiting w ON w.destination = d.destination
    WHERE d.consecutive_failures > 0 AND (${merchantId}::bigint IS NULL OR w.pending > 0)
    ORDER BY d.consecutive_failures DESC, d.destination`);
  return rows.map((row) => {
    const openUntil = date(row.open_until);
    const probeUntil = date(row.probe_until);
    // Open past its time, the circuit waits for the next claim to send the probe: still open to the reader.
    const circuit = openUntil === null ? 'closed' : probeUntil && probeUntil > now ? 'probing' : 'open';
    return {
      destination: row.destination,
      consecutiveFailures: row.consecutive_failures,
      failingSince: date(row.failing_since),
      circuit,
      openUntil,
      lastError: row.last_error,
      lastFailureAt: date(row.last_failure_at),
      pending: Number(row.pending),
      merchants: merchantId === null ? (row.merchants ?? []) : [],
    };
  });
}
