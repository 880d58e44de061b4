import type { Database } from '../db/client';
import type { UpstreamRow } from './bill-row';
import type { MatchInput, MatchTotals } from './match-rows';

/** The upstream has no record of the day to give (not published yet, a day too old): nothing is matched. */
export class BillUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BillUnavailable';
  }
}

/**
 * Whose record one run reads: one account at the upstream (an Alipay app, a WeChat Pay merchant number, which several
 * credentials may share) or one chain.
 */
export interface ReconciliationScope {
  /** 'account:<upstream id>' or 'chain:<name>': a run is unique per day, channel and scope. */
  key: string;
  /** The credential the upstream is asked with (the newest of the account's). */
  credentialId: number | null;
  /** Our orders of this scope: those bound to one of these credentials, or on this chain. */
  credentialIds: number[];
  chain: string | null;
}

/**
 * The channels as reconciliation sees them: each one's name and, when it has an upstream record, its source. Handed
 * in (the registry, lib/channels/index.ts: CHANNELS) by the console, the CLI and the worker's composition:
 * reconciliation sits below the channels, whose sources implement ReconciliationSource, and never reads the registry.
 */
export type ReconciledChannels = readonly { readonly name: string; readonly reconciliation?: ReconciliationSource }[];

/** How a channel reads the upstream's record of a day (its bill, or the chain) for reconciliation. */
export interface ReconciliationSource {
  scopes(db: Database): Promise<ReconciliationScope[]>;
  /**
   * The day's rows (trades and refunds), streamed; throws BillUnavailable when there is no record to read (yet).
   * `now` is the run's clock (a bill's absence means "none" only once it is due).
   */
  rows(db: Database, scope: ReconciliationScope, day: string, signal: AbortSignal, now: Date): AsyncIterable<UpstreamRow>;
  /**
   * When a day found unavailable at `lastAttempt` is worth asking for again (the upstream's own advice); absent: at
   * the job's next run.
   */
  nextAttemptAt?(day: string, lastAttempt: Date): Date;
  /**
   * Which day of ours a refund is expected in the upstream's record: the day it finished (Alipay lists a refund when
   * it is paid back), or the day the upstream accepted it (WeChat Pay's trade bill). Default 'finished'.
   */
  refundDay?: 'finished' | 'accepted';
  /** Matches the staged rows its own way (a chain's transfers name no order); else by order number and amount. */
  match?(db: Database, input: MatchInput, scope: ReconciliationScope): Promise<MatchTotals>;
  /**
   * The setting naming the upstream it reads (and any other name that sets it too), when that setting left unset
   * with the sandbox on means the running service's simulator: a command reading it from outside the service
   * (reconcile) then needs that service's address (lib/sandbox/running-service-sandbox.ts).
   */
  readonly sandboxDefault?: { readonly setting: string; readonly aliases?: readonly string[] };
}
