import type { Database } from '../db/client';
import { CHANNELS } from '../channels';
import type { ChainEndpointHealth } from '../channels/channel-operator';

/** The endpoints every chain watcher fails over between, as each last answered, in the registry's order. */
export async function chainEndpointHealth(db: Database, now: Date): Promise<ChainEndpointHealth[]> {
  const lists = await Promise.all(CHANNELS.map((channel) => channel.watcherHealth?.endpoints(db, now) ?? []));
  return lists.flat();
}
