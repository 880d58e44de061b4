import type { Database } from '../db/client';
import { CHANNELS } from '../channels';

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

/** The endpoints every chain watcher fails over between, as each last answered, in the registry's order. */
export async function chainEndpointHealth(db: Database, now: Date): Promise<ChainEndpointHealth[]> {
  const lists = await Promise.all(CHANNELS.map((channel) => channel.watcherHealth?.endpoints(db, now) ?? []));
  return lists.flat();
}
