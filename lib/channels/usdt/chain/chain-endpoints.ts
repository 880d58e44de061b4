import { inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../../clock';
import type { Database } from '../../../db/client';
import { chainEndpoints, type ChainEndpointRow } from './schema';

/** TronGrid's documented penalty for going over its rate limit, when the answer does not say how long. */
export const DEFAULT_BLOCK_MS = 30_000;
const ERROR_MAX_LENGTH = 300;

export type EndpointState = Omit<ChainEndpointRow, 'updatedAt'>;

function freshState(baseUrl: string): EndpointState {
  return { baseUrl, blockedUntil: null, failingSince: null, lastError: null, lastErrorAt: null, lastOkAt: null, lastAttemptAt: null };
}

/**
 * The configured TronGrid-compatible endpoints and what the watcher knows of each: blocked (a 403/429 and until
 * when), failing (since when, last error) or fine. Loaded from chain_endpoints at the start of a tick and saved at
 * its end, so a block is honoured across ticks and worker processes and the operator's health page sees it.
 */
export class ChainEndpointPool {
  private readonly changed = new Set<string>();

  private constructor(
    private readonly states: EndpointState[],
    private readonly clock: Clock,
    /** How long a failing endpoint rests behind the healthy ones before it is probed again. */
    readonly retryMs: number,
  ) {}

  static async load(db: Database, baseUrls: readonly string[], clock: Clock, retryMs: number): Promise<ChainEndpointPool> {
    const rows = baseUrls.length === 0 ? [] : await db.select().from(chainEndpoints).where(inArray(chainEndpoints.baseUrl, [...baseUrls]));
    const states = baseUrls.map((baseUrl) => {
      const row = rows.find((candidate) => candidate.baseUrl === baseUrl);
      if (!row) return freshState(baseUrl);
      const { updatedAt: _updatedAt, ...state } = row;
      return state;
    });
    return new ChainEndpointPool(states, clock, retryMs);
  }

  /** In memory only (tests and tools that need no persistence). */
  static transient(baseUrls: readonly string[], clock: Clock, retryMs = 60_000): ChainEndpointPool {
    return new ChainEndpointPool(baseUrls.map(freshState), clock, retryMs);
  }

  now(): Date {
    return this.clock.now();
  }

  snapshot(): EndpointState[] {
    return this.states.map((state) => ({ ...state }));
  }

  /** Where to send a request, best first: never a blocked endpoint; healthy ones in configured order, then failing ones. */
  candidates(): EndpointState[] {
    const now = this.clock.now().getTime();
    const open = this.states.filter((state) => !state.blockedUntil || state.blockedUntil.getTime() <= now);
    return [...open.filter((state) => !state.failingSince), ...open.filter((state) => state.failingSince)];
  }

  /** Failing endpoints that have rested long enough to be probed once, beside the tick's own requests. */
  dueForProbe(): EndpointState[] {
    const now = this.clock.now().getTime();
    return this.candidates().filter((state) => state.failingSince && (!state.lastAttemptAt || now - state.lastAttemptAt.getTime() >= this.retryMs));
  }

  /** The earliest time a blocked endpoint opens again, when every endpoint is blocked. */
  allBlockedUntil(): Date | undefined {
    if (this.states.length === 0 || this.candidates().length > 0) return undefined;
    return new Date(Math.min(...this.states.map((state) => state.blockedUntil!.getTime())));
  }

  markOk(baseUrl: string): void {
    const now = this.clock.now();
    this.update(baseUrl, { blockedUntil: null, failingSince: null, lastOkAt: now, lastAttemptAt: now });
  }

  markBlocked(baseUrl: string, until: Date, error: string): void {
    const now = this.clock.now();
    this.update(baseUrl, { blockedUntil: until, lastError: clip(error), lastErrorAt: now, lastAttemptAt: now });
  }

  markFailing(baseUrl: string, error: string): void {
    const now = this.clock.now();
    const current = this.states.find((state) => state.baseUrl === baseUrl);
    this.update(baseUrl, { failingSince: current?.failingSince ?? now, lastError: clip(error), lastErrorAt: now, lastAttemptAt: now });
  }

  /** Writes what changed during the tick. */
  async save(db: Database): Promise<void> {
    const changed = this.states.filter((state) => this.changed.has(state.baseUrl));
    this.changed.clear();
    for (const state of changed) {
      const { baseUrl: _baseUrl, ...values } = state;
      await db
        .insert(chainEndpoints)
        .values({ ...state, updatedAt: sql`now()` })
        .onConflictDoUpdate({ target: chainEndpoints.baseUrl, set: { ...values, updatedAt: sql`now()` } });
    }
  }

  private update(baseUrl: string, patch: Partial<EndpointState>): void {
    const state = this.states.find((candidate) => candidate.baseUrl === baseUrl);
    if (!state) return;
    Object.assign(state, patch);
    this.changed.add(baseUrl);
  }
}

function clip(error: string): string {
  return error.length > ERROR_MAX_LENGTH ? `${error.slice(0, ERROR_MAX_LENGTH)}…` : error;
}

/**
 * How long a 403/429 blocks the endpoint: `Retry-After` (seconds or an HTTP date) when given, else the time in
 * TronGrid's message ("… the query server is suspended for 30s"), else TronGrid's documented 30 s.
 */
export function blockDurationMs(retryAfter: string | null, body: string, now: Date): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(seconds * 1000, 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(date - now.getTime(), 1000);
  }
  const suspended = /suspended for (\d+)\s*(ms|s|sec|seconds?|m|min|minutes?)?\b/i.exec(body);
  if (suspended) {
    const amount = Number(suspended[1]);
    const unit = (suspended[2] ?? 's').toLowerCase();
    const factor = unit === 'ms' ? 1 : unit.startsWith('m') ? 60_000 : 1000;
    return Math.max(amount * factor, 1000);
  }
  return DEFAULT_BLOCK_MS;
}
