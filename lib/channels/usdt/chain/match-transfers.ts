import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { UpstreamRow } from '../../../reconciliation/bill-row';
import { runTotals, type MatchInput, type MatchTotals } from '../../../reconciliation/match-rows';

/** How one USDT chain's transfers are matched: its pool name (receiving_addresses.chain, chain_transfers.chain). */
export interface TransferChain {
  name: string;
  /**
   * How far after a transfer's recorded time an order may have been created and still be paid by it: 0 on TRON
   * (millisecond block times), 999 ms on the EVM chains, whose block timestamps are whole seconds (as the watcher judges).
   */
  windowSlackMs: number;
}

/** The status of a transfer that is not a whole number of cents: it can pay no order (its amount is kept rounded down). */
export const NOT_WHOLE_CENTS = 'not_whole_cents';

/**
 * A chain transfer to one of our addresses as a reconciliation row: the reference names the transfer itself
 * (transaction id and event index, as chain_transfers keys it: one transaction can pay several addresses), the
 * upstream reference its transaction (what an order paid by it records as trade number).
 */
export function transferRow(transfer: { transactionId: string; eventIndex: number; to: string; raw: bigint; rawPerCent: bigint; at: Date }): UpstreamRow {
  const whole = transfer.raw % transfer.rawPerCent === 0n;
  return {
    kind: 'trade',
    reference: `${transfer.transactionId}:${transfer.eventIndex}`,
    upstreamReference: transfer.transactionId,
    refundReference: '',
    account: transfer.to,
    amountMinor: transfer.raw / transfer.rawPerCent,
    status: whole ? 'success' : NOT_WHOLE_CENTS,
    occurredAt: transfer.at,
  };
}

/**
 * Matches a day of one chain's transfers (staged by transferRow) against our orders on that chain:
 * - a transfer the watcher never recorded (no chain_transfers row) and that no order records as its payment: when an
 *   unpaid order waits on that address for that exact amount (created before the transfer), it is missing here (the
 *   credit action pays it); else it paid no order;
 * - an order paid here from the chain during the day whose transaction is not among the day's transfers is missing
 *   upstream.
 */
export async function matchChainTransfers(db: Database, input: MatchInput, chain: TransferChain): Promise<MatchTotals> {
  const { runId, start, end } = input;
  const slack = sql`${chain.windowSlackMs} * interval '1 millisecond'`;
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, upstream_amount_minor, ours_amount_minor, upstream_status, ours_status, upstream_at)
    SELECT ${runId}, CASE WHEN o.id IS NULL THEN 'transfer_no_order' ELSE 'missing_here' END, u.reference, u.upstream_reference, o.id, u.amount_minor, o.pay_amount_minor, u.status, o.status, u.occurred_at
    FROM reconciliation_upstream_rows u
    LEFT JOIN LATERAL (
      SELECT o.id, o.pay_amount_minor, o.status FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id
      WHERE o.channel = 'USDT' AND a.chain = ${chain.name} AND a.address = u.account AND o.pay_amount_minor = u.amount_minor AND u.status = 'success'
        AND o.status <> 'paid' AND o.created_at <= u.occurred_at + ${slack}
      ORDER BY o.created_at DESC LIMIT 1) o ON true
    WHERE u.run_id = ${runId}
      AND NOT EXISTS (SELECT 1 FROM chain_transfers t
                      WHERE t.chain = ${chain.name} AND t.transaction_id = u.upstream_reference AND t.transaction_id || ':' || t.event_index = u.reference)
      AND NOT EXISTS (SELECT 1 FROM orders p JOIN receiving_addresses pa ON pa.id = p.receiving_address_id
                      WHERE p.channel = 'USDT' AND p.trade_no = u.upstream_reference AND pa.chain = ${chain.name} AND pa.address = u.account AND p.pay_amount_minor = u.amount_minor)
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, ours_amount_minor, ours_status)
    SELECT ${runId}, 'missing_upstream', o.order_no, COALESCE(o.trade_no, ''), o.id, o.pay_amount_minor, o.status
    FROM orders o
    WHERE ${input.scope} AND o.status = 'paid' AND o.paid_via = 'chain' AND o.paid_at >= ${start} AND o.paid_at < ${end}
      AND NOT EXISTS (SELECT 1 FROM reconciliation_upstream_rows u WHERE u.run_id = ${runId} AND u.upstream_reference = o.trade_no)
    ON CONFLICT DO NOTHING`);
  return runTotals(db, input);
}
