import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

export const RECONCILIATION_RUN_STATUSES = ['complete', 'unavailable', 'failed'] as const;
export type ReconciliationRunStatus = (typeof RECONCILIATION_RUN_STATUSES)[number];

/**
 * The differences a reconciliation finds (lib/reconciliation/match-bill.ts):
 * missing_here: the upstream took the payment, the order here is not paid (creditable when the order exists);
 * missing_upstream: paid here, absent from the upstream's record; amount_differs; status_differs (paid here, the
 * upstream reports the trade revoked or not successful); refund_outside: a refund the service did not make;
 * transfer_no_order: a chain transfer to our address that paid no order; not_made_here: a trade (or its refund) on the
 * upstream account that this service never created (another app or shop on the same Alipay PID / WeChat Pay mchid),
 * shown on the run but not on the attention list; late_payment: the upstream took the payment after the order was
 * closed here and the service recorded it as its late payment (refunded, never credited; the recorded payment is the
 * operator's item already, so it is not on the attention list); late_payment_unrecorded: the same, but the service
 * never heard of it (refunded at the upstream, never credited).
 */
export const FINDING_KINDS = ['missing_here', 'missing_upstream', 'amount_differs', 'status_differs', 'refund_outside', 'transfer_no_order', 'not_made_here', 'late_payment', 'late_payment_unrecorded'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/**
 * One reconciliation of one day (Beijing time) of one channel and scope (an upstream credential, or a chain). Running
 * the same day again updates this row and replaces its findings.
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    channel: text('channel').notNull(),
    /** 'account:<upstream account>' (an Alipay PID, a WeChat Pay mchid) for a channel with credentials, 'chain:<name>' for USDT. */
    scope: text('scope').notNull(),
    credentialId: integer('credential_id'),
    status: text('status').$type<ReconciliationRunStatus>().notNull(),
    /** Why the run is unavailable or failed (the upstream's refusal), else null. */
    detail: text('detail'),
    upstreamCount: integer('upstream_count').notNull().default(0),
    upstreamTotalMinor: bigint('upstream_total_minor', { mode: 'bigint' }).notNull().default(0n),
    upstreamRefundCount: integer('upstream_refund_count').notNull().default(0),
    upstreamRefundTotalMinor: bigint('upstream_refund_total_minor', { mode: 'bigint' }).notNull().default(0n),
    oursCount: integer('ours_count').notNull().default(0),
    oursTotalMinor: bigint('ours_total_minor', { mode: 'bigint' }).notNull().default(0n),
    findingCount: integer('finding_count').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    unique('reconciliation_runs_day_scope_key').on(table.day, table.channel, table.scope),
    check('reconciliation_runs_status_check', sql`${table.status} in ('complete', 'unavailable', 'failed')`),
  ],
);

/** A difference found by a run; replaced when the run is repeated. */
export const reconciliationFindings = pgTable(
  'reconciliation_findings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => reconciliationRuns.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<FindingKind>().notNull(),
    /** Our order number as the upstream names it (out_trade_no), or a chain transfer as txid:event index. */
    reference: text('reference').notNull(),
    /** The upstream's own number: trade number, refund number, transaction hash. */
    upstreamReference: text('upstream_reference').notNull().default(''),
    orderId: bigint('order_id', { mode: 'number' }),
    upstreamAmountMinor: bigint('upstream_amount_minor', { mode: 'bigint' }),
    oursAmountMinor: bigint('ours_amount_minor', { mode: 'bigint' }),
    upstreamStatus: text('upstream_status'),
    oursStatus: text('ours_status'),
    upstreamAt: timestamp('upstream_at', { withTimezone: true }),
    /** Set when an operator credited the order from this finding. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
  },
  (table) => [
    unique('reconciliation_findings_item_key').on(table.runId, table.kind, table.reference, table.upstreamReference),
    index('reconciliation_findings_open_idx').on(table.id).where(sql`${table.resolvedAt} IS NULL`),
    check('reconciliation_findings_kind_check', sql`${table.kind} in ('missing_here', 'missing_upstream', 'amount_differs', 'status_differs', 'refund_outside', 'transfer_no_order', 'not_made_here', 'late_payment', 'late_payment_unrecorded')`),
  ],
);

/**
 * The upstream's rows of a run while it is matched: streamed in from the bill (or the chain) in batches, matched in
 * the database, deleted when the run ends, so that neither side of a day is ever held in memory.
 */
export const reconciliationUpstreamRows = pgTable(
  'reconciliation_upstream_rows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => reconciliationRuns.id, { onDelete: 'cascade' }),
    /** 'trade' or 'refund'. */
    kind: text('kind').notNull(),
    reference: text('reference').notNull(),
    upstreamReference: text('upstream_reference').notNull(),
    /** A refund's own number (out_request_no / out_refund_no); '' for a trade. */
    refundReference: text('refund_reference').notNull().default(''),
    /** A chain transfer's receiving address; '' for a bill's row. */
    account: text('account').notNull().default(''),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** 'success', or the upstream's word for a trade that did not stand (REVOKED…). */
    status: text('status').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }),
  },
  (table) => [index('reconciliation_upstream_rows_run_reference_idx').on(table.runId, table.reference)],
);

export type ReconciliationRunRow = typeof reconciliationRuns.$inferSelect;
export type ReconciliationFindingRow = typeof reconciliationFindings.$inferSelect;
