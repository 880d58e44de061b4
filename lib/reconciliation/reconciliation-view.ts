import { and, asc, desc, eq, isNull, notInArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, orders, reconciliationFindings, reconciliationRuns, type FindingKind, type ReconciliationRunStatus } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import type { ReconciledChannels } from './bill-source';
import { paidHereNow } from './paid-here';
import { creditRefusal } from './credit-refusal';
import { LOW_SEVERITY_FINDINGS } from './finding-severity';
import { latePaymentRecorded } from './late-payment-recorded';

/** At most this many findings of a run are shown on the page (the counts are always complete). */
export const FINDINGS_SHOWN = 500;

export interface FindingView {
  id: number;
  kind: FindingKind;
  /** Our order's number, or what the upstream named (a number we do not have, a transaction). */
  reference: string;
  /** Our platform order number when the finding is about an order here. */
  orderNo: string | null;
  upstreamReference: string;
  upstreamAmount: string | null;
  oursAmount: string | null;
  upstreamStatus: string | null;
  oursStatus: string | null;
  upstreamAt: Date | null;
  merchantOrderNo: string | null;
  appId: string | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  /** The one action: credit the order (paid upstream before it closed, not here, same amount, not credited yet). */
  creditable: boolean;
}

export interface RunView {
  id: number;
  day: string;
  channel: string;
  scope: string;
  /** What the run's totals and findings are in (currencyOfScope). */
  currency: 'USDT' | 'CNY';
  status: ReconciliationRunStatus;
  detail: string | null;
  upstreamCount: number;
  upstreamTotal: string;
  upstreamRefundCount: number;
  upstreamRefundTotal: string;
  /** A completed run's count of our paid orders; for one that has not completed, the count as it stands now. */
  oursCount: number;
  oursTotal: string;
  findingCount: number;
  finishedAt: Date | null;
  findings: FindingView[];
}

/** What a run's totals and findings are in: a chain's runs count its USDT, the other channels settle in CNY. */
const currencyOfScope = (scope: string): 'USDT' | 'CNY' => (scope.startsWith('chain:') ? 'USDT' : 'CNY');

const amount = (minor: bigint | null) => (minor === null ? null : formatMinorUnits(minor));

/** A run's findings, by kind; at most `limit` (the page's FINDINGS_SHOWN), all of them without one. */
export async function findingsOfRun(db: Database, runId: number, limit?: number): Promise<FindingView[]> {
  const query = db
    .select({
      finding: reconciliationFindings,
      merchantOrderNo: orders.merchantOrderNo,
      appId: merchants.appId,
      order: { orderNo: orders.orderNo, status: orders.status, payAmountMinor: orders.payAmountMinor, closedAt: orders.closedAt },
      latePaymentRecorded: latePaymentRecorded(orders.id),
    })
    .from(reconciliationFindings)
    .leftJoin(orders, eq(orders.id, reconciliationFindings.orderId))
    .leftJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(eq(reconciliationFindings.runId, runId))
    .orderBy(asc(reconciliationFindings.kind), asc(reconciliationFindings.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map(({ finding, merchantOrderNo, appId, order, latePaymentRecorded }) => ({
    id: finding.id,
    kind: finding.kind,
    reference: finding.reference,
    orderNo: order?.orderNo ?? null,
    upstreamReference: finding.upstreamReference,
    upstreamAmount: amount(finding.upstreamAmountMinor),
    oursAmount: amount(finding.oursAmountMinor),
    upstreamStatus: finding.upstreamStatus,
    oursStatus: order?.status ?? finding.oursStatus,
    upstreamAt: finding.upstreamAt,
    merchantOrderNo,
    appId,
    resolvedAt: finding.resolvedAt,
    resolvedBy: finding.resolvedBy,
    creditable: appId !== null && creditRefusal({ ...finding, order: order && { ...order, latePaymentRecorded } }) === null,
  }));
}

/** The day's runs, channel by channel, each with its totals and its findings. */
export async function reconciliationOfDay(db: Database, channels: ReconciledChannels, day: string): Promise<RunView[]> {
  const runs = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.day, day)).orderBy(asc(reconciliationRuns.channel), asc(reconciliationRuns.scope));
  return Promise.all(
    runs.map(async (run) => {
      const here = run.status === 'complete' ? undefined : await paidHereNow(db, channels, run);
      return {
        id: run.id,
        day: run.day,
        channel: run.channel,
        scope: run.scope,
        currency: currencyOfScope(run.scope),
        status: run.status,
        detail: run.detail,
        upstreamCount: run.upstreamCount,
        upstreamTotal: formatMinorUnits(run.upstreamTotalMinor),
        upstreamRefundCount: run.upstreamRefundCount,
        upstreamRefundTotal: formatMinorUnits(run.upstreamRefundTotalMinor),
        oursCount: here?.count ?? run.oursCount,
        oursTotal: here?.total ?? formatMinorUnits(run.oursTotalMinor),
        findingCount: run.findingCount,
        finishedAt: run.finishedAt,
        findings: await findingsOfRun(db, run.id, FINDINGS_SHOWN),
      };
    }),
  );
}

export interface DayFinding extends FindingView {
  runId: number;
  channel: string;
  scope: string;
}

/** Every finding of a day's runs (of one channel, or only those no operator has credited yet), run by run. */
export async function findingsOfDay(db: Database, day: string, filter: { channel?: string; openOnly?: boolean } = {}): Promise<DayFinding[]> {
  const runs = await db
    .select({ id: reconciliationRuns.id, channel: reconciliationRuns.channel, scope: reconciliationRuns.scope })
    .from(reconciliationRuns)
    .where(filter.channel ? and(eq(reconciliationRuns.day, day), eq(reconciliationRuns.channel, filter.channel)) : eq(reconciliationRuns.day, day))
    .orderBy(asc(reconciliationRuns.channel), asc(reconciliationRuns.scope));
  const found: DayFinding[] = [];
  for (const run of runs) {
    for (const finding of await findingsOfRun(db, run.id)) {
      if (!filter.openOnly || finding.resolvedAt === null) found.push({ ...finding, runId: run.id, channel: run.channel, scope: run.scope });
    }
  }
  return found;
}

/** The latest reconciled days, newest first, for the page's day picker. */
export async function reconciledDays(db: Database, limit = 14): Promise<string[]> {
  const rows = await db.selectDistinct({ day: reconciliationRuns.day }).from(reconciliationRuns).orderBy(desc(reconciliationRuns.day)).limit(limit);
  return rows.map((row) => row.day);
}

export interface OpenFindingItem {
  id: number;
  runId: number;
  day: string;
  channel: string;
  currency: 'USDT' | 'CNY';
  kind: FindingKind;
  reference: string;
  upstreamAmount: string | null;
  oursAmount: string | null;
}

/**
 * Findings no operator has credited, for the attention list (newest first); each links to its day's page. The low
 * severity ones (LOW_SEVERITY_FINDINGS: trades the service never made, late payments it recorded) are no alarm:
 * they stay on the run's page only.
 */
export async function openFindings(db: Database, limit: number): Promise<OpenFindingItem[]> {
  const rows = await db
    .select({ finding: reconciliationFindings, day: reconciliationRuns.day, channel: reconciliationRuns.channel, scope: reconciliationRuns.scope })
    .from(reconciliationFindings)
    .innerJoin(reconciliationRuns, eq(reconciliationRuns.id, reconciliationFindings.runId))
    .where(and(isNull(reconciliationFindings.resolvedAt), notInArray(reconciliationFindings.kind, [...LOW_SEVERITY_FINDINGS])))
    .orderBy(desc(reconciliationFindings.id))
    .limit(limit);
  return rows.map(({ finding, day, channel, scope }) => ({ id: finding.id, runId: finding.runId, day, channel, currency: currencyOfScope(scope), kind: finding.kind, reference: finding.reference, upstreamAmount: amount(finding.upstreamAmountMinor), oursAmount: amount(finding.oursAmountMinor) }));
}
