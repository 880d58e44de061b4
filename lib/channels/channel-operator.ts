import type { RequestBudget } from './request-budget';
import type { Database } from '../db/client';
import type { TransferItem } from './attention-items';
import type { PoolPressure } from './pool-pressure';

/**
 * What a channel shows the operator console (the Channel interface extends it). The types live here, with the
 * channels, and the console (lib/operator, app/operator) imports them: the console reads the channels, never the
 * reverse.
 */
export interface ChannelOperatorParts {
  /** For a channel that reads payments itself (on a chain): its transfers that paid nothing, for the attention list. */
  readonly attentionTransfers?: (db: Database) => Promise<TransferItem[]>;
  /** For a channel that reads payments itself: its watcher's cursor and endpoints, for the health page. */
  readonly watcherHealth?: ChannelWatcherHealth;
  /** For a channel whose orders share a pool of receiving slots: how full it is, per network and amount band (health page). */
  readonly poolPressure?: (db: Database) => Promise<PoolPressure[]>;
  /** For a channel that reads chains: each network's requests a day at the settings, against its provider quota (health page). */
  readonly requestBudgets?: () => RequestBudget[];
}

/** The health page's view of a chain watcher. */
export interface ChannelWatcherHealth {
  /**
   * The time of the last block the watcher has read a payment in and when it saved that, and the final block a
   * complete pass has read through (it moves when no payment comes in); undefined before its first run.
   */
  cursor(db: Database): Promise<{ blockTime: Date; updatedAt: Date | null; readThrough?: Date } | undefined>;
  /** Each endpoint the watcher fails over between, in order of preference, as it last answered. */
  endpoints(db: Database, now: Date): Promise<ChainEndpointHealth[]>;
}

export type EndpointStatus = 'ok' | 'blocked' | 'failing' | 'unused';

export interface ChainEndpointHealth {
  /** The endpoint as pages may show it (no credentials, tokens masked). */
  label: string;
  status: EndpointStatus;
  blockedUntil: Date | null;
  failingSince: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastOkAt: Date | null;
}
