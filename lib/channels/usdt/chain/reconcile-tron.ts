import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { UpstreamRow } from '../../../reconciliation/bill-row';
import { BillUnavailable, type ReconciliationScope, type ReconciliationSource } from '../../../reconciliation/bill-source';
import { beijingDayBounds } from '../../../reconciliation/beijing-day';
import { runTotals, type MatchInput, type MatchTotals } from '../../../reconciliation/match-rows';
import { normaliseTronAddress } from '../tron/address';
import { chainConfig, ChainNotConfigured, RAW_UNITS_PER_CENT } from './chain-config';
import { ChainEndpointPool } from './chain-endpoints';
import { TronGridClient } from './trongrid-client';
import { systemClock } from '../../../clock';

/** chainType '1': the scope of our TRC20 orders (orders.chain_type). */
const TRON_SCOPE: ReconciliationScope = { key: 'chain:TRC20', credentialId: null, credentialIds: [], chain: '1' };

/**
 * The day's USDT transfers to our TRON receiving addresses, read again from the chain (TronGrid's contract events from
 * the day's first block time on, page by page, until the day ends), whatever the watcher's cursor says. A transfer
 * whose value is not a whole number of cents keeps its cents rounded down (it can pay no order anyway).
 */
async function* tronTransfers(db: Database, _scope: ReconciliationScope, day: string, signal: AbortSignal): AsyncGenerator<UpstreamRow> {
  const config = chainConfig();
  const { start, end } = beijingDayBounds(day)!;
  const { rows } = await db.execute<{ address: string }>(sql`SELECT address FROM receiving_addresses WHERE chain = 'TRC20'`);
  const pool = new Set(rows.map((row) => row.address));
  const client = new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, systemClock), apiKey: config.apiKey, signal });
  const solid = await client.solidifiedBlock();
  if (solid.timestampMs < end.getTime()) throw new BillUnavailable(`the chain is final only up to ${new Date(solid.timestampMs).toISOString()}, before the end of ${day}`);
  let next: { fingerprint: string; endpoint: string } | undefined;
  for (;;) {
    const page = await client.transferEvents(config.contract, start.getTime(), next);
    for (const event of page.events) {
      if (event.blockTimestampMs >= end.getTime()) return;
      const to = normaliseTronAddress(event.to);
      if (to === undefined || !pool.has(to)) continue;
      yield {
        kind: 'trade',
        reference: event.transactionId,
        upstreamReference: event.transactionId,
        refundReference: '',
        account: to,
        amountMinor: BigInt(event.value) / RAW_UNITS_PER_CENT,
        status: 'success',
        occurredAt: new Date(event.blockTimestampMs),
      };
    }
    if (!page.fingerprint || page.events.length === 0) return;
    next = { fingerprint: page.fingerprint, endpoint: page.endpoint };
  }
}

/**
 * A transfer the watcher never recorded (no chain_transfers row) and that paid no order: when an unpaid order waits
 * on that address for that amount (created before the transfer), it is missing here (the credit action pays it);
 * else it paid no order. An order paid here from the chain during the day whose transaction is not among the day's
 * transfers is missing upstream.
 */
async function matchTransfers(db: Database, input: MatchInput): Promise<MatchTotals> {
  const { runId, start, end } = input;
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, upstream_amount_minor, ours_amount_minor, upstream_status, ours_status, upstream_at)
    SELECT ${runId}, CASE WHEN o.id IS NULL THEN 'transfer_no_order' ELSE 'missing_here' END, u.reference, u.upstream_reference, o.id, u.amount_minor, o.pay_amount_minor, 'success', o.status, u.occurred_at
    FROM reconciliation_upstream_rows u
    LEFT JOIN LATERAL (
      SELECT o.id, o.pay_amount_minor, o.status FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id
      WHERE o.channel = 'USDT' AND a.chain = 'TRC20' AND a.address = u.account AND o.pay_amount_minor = u.amount_minor
        AND o.status <> 'paid' AND o.created_at <= u.occurred_at
      ORDER BY o.created_at DESC LIMIT 1) o ON true
    WHERE u.run_id = ${runId}
      AND NOT EXISTS (SELECT 1 FROM chain_transfers t WHERE t.chain = 'TRC20' AND t.transaction_id = u.reference)
      AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.channel = 'USDT' AND p.trade_no = u.reference)
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO reconciliation_findings (run_id, kind, reference, upstream_reference, order_id, ours_amount_minor, ours_status)
    SELECT ${runId}, 'missing_upstream', o.order_no, COALESCE(o.trade_no, ''), o.id, o.pay_amount_minor, o.status
    FROM orders o
    WHERE ${input.scope} AND o.status = 'paid' AND o.paid_via = 'chain' AND o.paid_at >= ${start} AND o.paid_at < ${end}
      AND NOT EXISTS (SELECT 1 FROM reconciliation_upstream_rows u WHERE u.run_id = ${runId} AND u.reference = o.trade_no)
    ON CONFLICT DO NOTHING`);
  return runTotals(db, input);
}

/** USDT's reconciliation: TRON (the EVM chains are not read again yet). Off when the chain is not configured. */
export const usdtReconciliation: ReconciliationSource = {
  async scopes() {
    try {
      chainConfig();
    } catch (error) {
      if (error instanceof ChainNotConfigured) return [];
      throw error;
    }
    return [TRON_SCOPE];
  },
  rows: tronTransfers,
  match: matchTransfers,
};
