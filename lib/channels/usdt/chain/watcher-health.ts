import { sql } from 'drizzle-orm';
import type { ChannelWatcherHealth } from '../../channel-operator';
import { chainCursors } from './schema';
import { tronGridEndpointHealth } from './endpoint-health';
import { USDT_CURSOR } from './watch-chain';

/** The health page's view of the TRC20 watcher: its cursor in chain_cursors and its TronGrid endpoints. */
export const trc20WatcherHealth: ChannelWatcherHealth = {
  async cursor(db) {
    const [cursor] = await db.select().from(chainCursors).where(sql`${chainCursors.name} = ${USDT_CURSOR}`);
    return cursor ? { blockTime: new Date(cursor.blockTimestampMs), updatedAt: cursor.updatedAt } : undefined;
  },
  endpoints: (db, now) => tronGridEndpointHealth(db, now),
};
