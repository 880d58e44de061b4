import { recordAudit } from '../audit/record-audit';
import { CHANNELS } from '../channels';
import type { Database } from '../db/client';
import { reconcileDay } from '../reconciliation/reconcile-day';
import type { ScopeOutcome } from '../reconciliation/reconcile-scope';

/** A re-run from the console reads every bill of the day once; past this it stops where it is (the job's own deadline). */
const RERUN_DEADLINE_MS = 10 * 60_000;

/**
 * An operator reconciles a day again from the console (as `npm run admin -- reconcile --date` does for scripts): every
 * scope of every channel, each completed run replacing the day's earlier one, a failed one leaving it as it was. The
 * re-run and its outcome per scope are written to the audit log.
 */
export async function rerunReconciliationDay(db: Database, input: { day: string; actor: string }): Promise<ScopeOutcome[]> {
  const outcomes = await reconcileDay(db, CHANNELS, { day: input.day, now: () => new Date(), signal: AbortSignal.timeout(RERUN_DEADLINE_MS) });
  await recordAudit(db, {
    actor: input.actor,
    action: 'reconciliation.rerun',
    subject: `reconciliation:${input.day}`,
    after: { runs: outcomes.map((outcome) => ({ channel: outcome.channel, scope: outcome.scope, status: outcome.status, findings: outcome.totals?.findingCount ?? 0, detail: outcome.detail })) },
  });
  return outcomes;
}
