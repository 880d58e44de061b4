import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * Matches the run's staged upstream refunds against the refunds the service made, in the database, by our refund
 * number (the bill's out_request_no / out_refund_no) within the channel:
 * - a refund the service has no record of was made outside it (refund_outside);
 * - one it has with another amount (amount_differs), or that it holds as failed or closed (status_differs); one still
 *   processing here is the refund poller's to settle, not a difference;
 * - each refund the service holds as succeeded during the day that the upstream does not list (missing_upstream,
 *   named by our refund number as its upstream reference, which an order's finding leaves empty).
 * Refund findings carry the order's number as their reference and 'refund' as the upstream's status.
 */
export async function matchStagedRefunds(db: Database, { runId, channel, scope, start, end }: { runId: number; channel: string; scope: SQL; start: Date; end: Date }): Promise<void> {
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, upstream_amount_minor, ours_amount_minor, upstream_status, ours_status, upstream_at)
    SELECT ${runId},
      CASE WHEN r.id IS NULL THEN 'refund_outside'
           WHEN r.amount_minor <> u.amount_minor THEN 'amount_differs'
           ELSE 'status_differs' END,
      u.reference, COALESCE(NULLIF(u.refund_reference, ''), u.upstream_reference), COALESCE(ro.id, o.id), u.amount_minor,
      CASE WHEN r.id IS NULL THEN o.pay_amount_minor ELSE r.amount_minor END, 'refund', COALESCE(r.state, o.status), u.occurred_at
    FROM reconciliation_upstream_rows u
    LEFT JOIN orders o ON o.order_no = u.reference AND o.channel = ${channel}
    LEFT JOIN (refunds r JOIN orders ro ON ro.id = r.order_id AND ro.channel = ${channel}) ON u.refund_reference <> '' AND r.refund_no = u.refund_reference
    WHERE u.run_id = ${runId} AND u.kind = 'refund'
      AND (r.id IS NULL OR r.amount_minor <> u.amount_minor OR r.state IN ('failed', 'closed'))
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, ours_amount_minor, ours_status)
    SELECT ${runId}, 'missing_upstream', o.order_no, r.refund_no, o.id, r.amount_minor, r.state
    FROM refunds r
    JOIN orders o ON o.id = r.order_id
    WHERE ${scope} AND r.state = 'succeeded' AND r.finished_at >= ${start} AND r.finished_at < ${end}
      AND NOT EXISTS (SELECT 1 FROM reconciliation_upstream_rows u WHERE u.run_id = ${runId} AND u.kind = 'refund' AND u.refund_reference = r.refund_no)
    ON CONFLICT DO NOTHING`);
}
