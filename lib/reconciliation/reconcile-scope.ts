import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { reconciliationRuns, type ReconciliationRunStatus } from '../db/schema';
import { beijingDayBounds } from './beijing-day';
import { BillUnavailable, type ReconciliationScope, type ReconciliationSource } from './bill-source';
import { matchStagedRows, scopeCondition, type MatchTotals } from './match-rows';
import { clearStagedRows, stageUpstreamRows } from './stage-rows';

export interface ScopeOutcome {
  runId: number;
  channel: string;
  scope: string;
  status: ReconciliationRunStatus;
  detail: string | null;
  totals: MatchTotals | null;
  /** This run did not complete, and the day's earlier completed run (and its findings) stays as it was. */
  keptCompletedRun?: boolean;
}

/** The day's run of the scope, created or taken over (its earlier findings and staged rows removed). */
async function openRun(db: Database, day: string, channel: string, scope: ReconciliationScope, now: Date): Promise<number> {
  const [run] = await db
    .insert(reconciliationRuns)
    .values({ day, channel, scope: scope.key, credentialId: scope.credentialId, status: 'failed', detail: 'running', startedAt: now })
    .onConflictDoUpdate({
      target: [reconciliationRuns.day, reconciliationRuns.channel, reconciliationRuns.scope],
      set: { credentialId: scope.credentialId, status: 'failed', detail: 'running', startedAt: now, finishedAt: null },
    })
    .returning({ id: reconciliationRuns.id });
  await db.execute(sql`DELETE FROM reconciliation_findings WHERE run_id = ${run!.id}`);
  await clearStagedRows(db, run!.id);
  return run!.id;
}

/** The day's completed run of the scope, if there is one: a re-run replaces it only once it completes in turn. */
async function completedRun(db: Database, day: string, channel: string, scope: ReconciliationScope): Promise<number | undefined> {
  const [run] = await db
    .select({ id: reconciliationRuns.id })
    .from(reconciliationRuns)
    .where(and(eq(reconciliationRuns.day, day), eq(reconciliationRuns.channel, channel), eq(reconciliationRuns.scope, scope.key), eq(reconciliationRuns.status, 'complete')))
    .limit(1);
  if (run) await clearStagedRows(db, run.id); // what an interrupted re-run left
  return run?.id;
}

async function closeRun(db: Database, runId: number, status: ReconciliationRunStatus, detail: string | null, totals: MatchTotals | null, now: Date, credentialId?: number | null) {
  await db
    .update(reconciliationRuns)
    .set({
      ...(credentialId !== undefined && { credentialId }),
      status,
      detail,
      finishedAt: now,
      upstreamCount: totals?.upstreamCount ?? 0,
      upstreamTotalMinor: totals?.upstreamTotalMinor ?? 0n,
      upstreamRefundCount: totals?.upstreamRefundCount ?? 0,
      upstreamRefundTotalMinor: totals?.upstreamRefundTotalMinor ?? 0n,
      oursCount: totals?.oursCount ?? 0,
      oursTotalMinor: totals?.oursTotalMinor ?? 0n,
      findingCount: totals?.findingCount ?? 0,
    })
    .where(sql`${reconciliationRuns.id} = ${runId}`);
}

/**
 * Reconciles one day of one scope: the upstream's record streamed into staging, matched against our orders in the
 * database, the differences stored as findings with the totals of both sides. A record the upstream does not have
 * (yet) makes the run 'unavailable'; one that cannot be read makes it 'failed', naming why; neither leaves findings.
 * Running a day again replaces its findings when the new run completes, in the transaction that matches: a re-run of
 * a completed day that fails or finds no bill leaves that run and its findings as they were (the outcome says why).
 */
export async function reconcileScope(
  db: Database,
  input: { day: string; channel: string; source: ReconciliationSource; scope: ReconciliationScope; now: () => Date; signal: AbortSignal },
): Promise<ScopeOutcome> {
  const bounds = beijingDayBounds(input.day);
  if (!bounds) throw new Error(`day ${input.day} is not yyyy-MM-dd`);
  const completed = await completedRun(db, input.day, input.channel, input.scope);
  const runId = completed ?? (await openRun(db, input.day, input.channel, input.scope, input.now()));
  const outcome = (status: ReconciliationRunStatus, detail: string | null, totals: MatchTotals | null): ScopeOutcome => ({ runId, channel: input.channel, scope: input.scope.key, status, detail, totals });
  try {
    // A day that has not ended has no bill anywhere (T+1), and its last payments are still arriving.
    if (bounds.end.getTime() > input.now().getTime()) throw new BillUnavailable(`${input.day} has not ended yet (Beijing time): bills are published the next day`);
    await stageUpstreamRows(db, runId, input.source.rows(db, input.scope, input.day, input.signal, input.now()));
    const totals = await db.transaction(async (tx) => {
      const transaction = tx as unknown as Database;
      await transaction.execute(sql`DELETE FROM reconciliation_findings WHERE run_id = ${runId}`);
      const match = input.source.match ?? matchStagedRows;
      const matched = await match(transaction, { runId, channel: input.channel, scope: scopeCondition(input.channel, input.scope), refundDay: input.source.refundDay ?? 'finished', ...bounds }, input.scope);
      await closeRun(transaction, runId, 'complete', null, matched, input.now(), input.scope.credentialId);
      return matched;
    });
    return outcome('complete', null, totals);
  } catch (error) {
    const unavailable = error instanceof BillUnavailable;
    const detail = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (completed === undefined) {
      await db.execute(sql`DELETE FROM reconciliation_findings WHERE run_id = ${runId}`);
      await closeRun(db, runId, unavailable ? 'unavailable' : 'failed', detail, null, input.now());
    }
    return { ...outcome(unavailable ? 'unavailable' : 'failed', detail, null), keptCompletedRun: completed !== undefined };
  } finally {
    await clearStagedRows(db, runId);
  }
}
