import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { matchStagedRefunds } from './match-refunds';
import { latePaymentRecorded } from './late-payment-recorded';

/** Which of our orders a run covers: the channel's, bound to the scope's credentials or on its chain. */
export function scopeCondition(channel: string, scope: { credentialIds: number[]; chain: string | null }): SQL {
  if (scope.chain !== null) return sql`o.channel = ${channel} AND o.chain_type = ${scope.chain}`;
  const ids = scope.credentialIds.length > 0 ? scope.credentialIds : [-1];
  return sql`o.channel = ${channel} AND o.credential_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`;
}

export interface MatchTotals {
  upstreamCount: number;
  upstreamTotalMinor: bigint;
  upstreamRefundCount: number;
  upstreamRefundTotalMinor: bigint;
  oursCount: number;
  oursTotalMinor: bigint;
  findingCount: number;
}

/**
 * Matches the run's staged upstream rows against our orders, in the database (both sides of a day never pass through
 * this process), and writes the differences as findings:
 * - each upstream trade by our order number: one the service never created (not_made_here: another app or shop on
 *   the same upstream account, low severity), one not paid here (missing_here), another amount (amount_differs), or a
 *   trade the upstream reports as not standing while it is paid here (status_differs);
 * - a payment of an order that is not paid here because it came too late is never missing_here, which would be
 *   credited: one the service recorded as the order's late payment (a notification or a query after the close) is
 *   late_payment (low severity: the recorded payment is on the attention list and refunded from the order's page);
 *   one taken after the order was closed here (or at a time the bill does not give) that the service never heard of
 *   is late_payment_unrecorded. A payment the upstream took before the order closed here (its notification lost,
 *   the poll unanswered until the window was over) is still missing_here;
 * - each of our orders paid during the day that the upstream does not list (missing_upstream);
 * - each upstream refund against the service's refunds, and each of its refunds of the day (matchStagedRefunds).
 * A row repeated in the record is one finding (the unique key), so running it again finds each difference once.
 */
export interface MatchInput {
  runId: number;
  channel: string;
  /** Our orders of the run (scopeCondition). */
  scope: SQL;
  start: Date;
  end: Date;
  /** Which day of ours the upstream lists a refund on (ReconciliationSource.refundDay). */
  refundDay?: 'finished' | 'accepted';
}

export async function matchStagedRows(db: Database, input: MatchInput): Promise<MatchTotals> {
  const { runId, channel, scope, start, end } = input;
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, upstream_amount_minor, ours_amount_minor, upstream_status, ours_status, upstream_at)
    SELECT ${runId},
      CASE WHEN o.id IS NULL THEN 'not_made_here'
           WHEN o.pay_amount_minor <> u.amount_minor THEN 'amount_differs'
           WHEN u.status = 'success' AND o.status <> 'paid'
                AND ${latePaymentRecorded(sql`o.id`)} THEN 'late_payment'
           WHEN u.status = 'success' AND o.status = 'closed' AND (u.occurred_at < o.closed_at) IS NOT TRUE THEN 'late_payment_unrecorded'
           WHEN u.status = 'success' THEN 'missing_here'
           ELSE 'status_differs' END,
      u.reference, u.upstream_reference, o.id, u.amount_minor, o.pay_amount_minor, u.status, o.status, u.occurred_at
    FROM reconciliation_upstream_rows u
    LEFT JOIN orders o ON o.order_no = u.reference AND o.channel = ${channel}
    WHERE u.run_id = ${runId} AND u.kind = 'trade'
      AND (o.id IS NULL OR o.pay_amount_minor <> u.amount_minor OR (u.status = 'success') <> (o.status = 'paid'))
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, ours_amount_minor, ours_status)
    SELECT ${runId}, 'missing_upstream', o.order_no, '', o.id, o.pay_amount_minor, o.status
    FROM orders o
    WHERE ${scope} AND o.status = 'paid' AND o.paid_at >= ${start} AND o.paid_at < ${end}
      AND NOT EXISTS (SELECT 1 FROM reconciliation_upstream_rows u WHERE u.run_id = ${runId} AND u.kind = 'trade' AND u.reference = o.order_no)
    ON CONFLICT DO NOTHING`);
  await matchStagedRefunds(db, input);
  return runTotals(db, input);
}

/** The counts and totals of both sides of a run and its number of findings. */
export async function runTotals(db: Database, { runId, scope, start, end }: MatchInput): Promise<MatchTotals> {
  const { rows } = await db.execute<Record<string, string>>(sql`
    SELECT
      (SELECT count(*) FROM reconciliation_upstream_rows WHERE run_id = ${runId} AND kind = 'trade' AND status = 'success') AS upstream_count,
      (SELECT coalesce(sum(amount_minor), 0) FROM reconciliation_upstream_rows WHERE run_id = ${runId} AND kind = 'trade' AND status = 'success') AS upstream_total,
      (SELECT count(*) FROM reconciliation_upstream_rows WHERE run_id = ${runId} AND kind = 'refund') AS refund_count,
      (SELECT coalesce(sum(amount_minor), 0) FROM reconciliation_upstream_rows WHERE run_id = ${runId} AND kind = 'refund') AS refund_total,
      (SELECT count(*) FROM orders o WHERE ${scope} AND o.status = 'paid' AND o.paid_at >= ${start} AND o.paid_at < ${end}) AS ours_count,
      (SELECT coalesce(sum(o.pay_amount_minor), 0) FROM orders o WHERE ${scope} AND o.status = 'paid' AND o.paid_at >= ${start} AND o.paid_at < ${end}) AS ours_total,
      (SELECT count(*) FROM reconciliation_findings WHERE run_id = ${runId}) AS finding_count`);
  const totals = rows[0]!;
  return {
    upstreamCount: Number(totals.upstream_count),
    upstreamTotalMinor: BigInt(totals.upstream_total!),
    upstreamRefundCount: Number(totals.refund_count),
    upstreamRefundTotalMinor: BigInt(totals.refund_total!),
    oursCount: Number(totals.ours_count),
    oursTotalMinor: BigInt(totals.ours_total!),
    findingCount: Number(totals.finding_count),
  };
}
