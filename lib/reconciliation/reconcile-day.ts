import type { Database } from '../db/client';
import type { ReconciledChannels, ReconciliationSource } from './bill-source';
import { reconcileScope, type ScopeOutcome } from './reconcile-scope';

/**
 * Reconciles one day of every channel that has an upstream record (its bill, the chain), scope by scope (each
 * upstream account, each chain). `skip` leaves out scopes already reconciled, for the periodic job.
 */
export async function reconcileDay(
  db: Database,
  channels: ReconciledChannels,
  input: { day: string; now: () => Date; signal?: AbortSignal; channels?: readonly string[]; skip?: (channel: string, scope: string, source: ReconciliationSource) => Promise<boolean> },
): Promise<ScopeOutcome[]> {
  const outcomes: ScopeOutcome[] = [];
  for (const channel of channels) {
    if (!channel.reconciliation || (input.channels && !input.channels.includes(channel.name))) continue;
    for (const scope of await channel.reconciliation.scopes(db)) {
      if (input.signal?.aborted) return outcomes;
      if (input.skip && (await input.skip(channel.name, scope.key, channel.reconciliation))) continue;
      outcomes.push(await reconcileScope(db, { day: input.day, channel: channel.name, source: channel.reconciliation, scope, now: input.now, signal: input.signal ?? new AbortController().signal }));
    }
  }
  return outcomes;
}
