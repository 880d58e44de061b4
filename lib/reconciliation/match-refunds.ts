import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * Refunds the upstream accepted during [start, end): every one that succeeded, closed or turned abnormal, and every one
 * it acknowledged, by when it accepted it (when that was not heard of, when the refund was asked for here).
 */
function acceptedDuring(start: Date, end: Date): SQL {
  return sql`(r.state IN ('succeeded', 'closed', 'abnormal') OR r.upstream_accepted) AND COALESCE(r.upstream_accepted_at, r.created_at) >= ${start} AND COALESCE(r.upstream_accepted_at, r.created_at) < ${end}`;
}

/**
 * Matches the run's staged upstream refunds against the refunds the service made, in the database, by our refund
 * number (the bill's out_request_no / out_refund_no) within the channel:
 * - a refund of a trade the service never created is not_made_here; one of our order that the service has no record
 *   of was made outside it (refund_outside);
 * - one it has with another amount (amount_differs); one the upstream lists as succeeded that is failed or closed
 *   here, or that it lists as closed while it succeeded here (status_differs). A refund the upstream lists as still
 *   processing (WeChat's bill keeps the status a refund had when the bill was made) is no difference, nor is one still
 *   processing here (the refund poller's to settle);
 * - each refund of ours that the upstream should list on this day and does not (missing_upstream, named by our refund
 *   number as its upstream reference, which an order's finding leaves empty): by default those that succeeded during
 *   the day; for a source whose record lists refunds on the day they were accepted (WeChat Pay), every refund it
 *   accepted during the day, whatever became of it.
 * Refund findings carry the order's number as their reference and 'refund' as the upstream's status.
 */
export async function matchStagedRefunds(db: Database, { runId, channel, scope, start, end, refundDay = 'finished' }: { runId: number; channel: string; scope: SQL; start: Date; end: Date; refundDay?: 'finished' | 'accepted' }): Promise<void> {
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, upstream_amount_minor, ours_amount_minor, upstream_status, ours_status, upstream_at)
    SELECT ${runId},
      CASE WHEN r.id IS NULL AND o.id IS NULL THEN 'not_made_here'
           WHEN r.id IS NULL THEN 'refund_outside'
           WHEN r.amount_minor <> u.amount_minor THEN 'amount_differs'
           ELSE 'status_differs' END,
      u.reference, COALESCE(NULLIF(u.refund_reference, ''), u.upstream_reference), COALESCE(ro.id, o.id), u.amount_minor,
      CASE WHEN r.id IS NULL THEN o.pay_amount_minor ELSE r.amount_minor END, 'refund', COALESCE(r.state, o.status), u.occurred_at
    FROM reconciliation_upstream_rows u
    LEFT JOIN orders o ON o.order_no = u.reference AND o.channel = ${channel}
    LEFT JOIN (refunds r JOIN orders ro ON ro.id = r.order_id AND ro.channel = ${channel}) ON u.refund_reference <> '' AND r.refund_no = u.refund_reference
    WHERE u.run_id = ${runId} AND u.kind = 'refund'
      AND (r.id IS NULL OR r.amount_minor <> u.amount_minor
           OR (u.status = 'success' AND r.state IN ('failed', 'closed', 'abnormal'))
           OR (u.status = 'closed' AND r.state = 'succeeded'))
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, ours_amount_minor, ours_status)
    SELECT ${runId}, 'missing_upstream', o.order_no, r.refund_no, o.id, r.amount_minor, r.state
    FROM refunds r
    JOIN orders o ON o.id = r.order_id
    WHERE ${scope} AND ${refundDay === 'accepted' ? acceptedDuring(start, end) : sql`r.state = 'succeeded' AND r.finished_at >= ${start} AND r.finished_at < ${end}`}
      AND NOT EXISTS (SELECT 1 FROM reconciliation_upstream_rows u WHERE u.run_id = ${runId} AND u.kind = 'refund' AND u.refund_reference = r.refund_no)
    ON CONFLICT DO NOTHING`);
}
