import { sql } from 'drizzle-orm';
import type { ChannelWatcherHealth } from '../../channel-operator';
import { chainCursors } from './schema';
import { tronGridEndpointHealth } from './endpoint-health';
import { USDT_CURSOR, USDT_READ_THROUGH } from './watch-chain';

/** The health page's view of the TRC20 watcher: its cursor in chain_cursors and its TronGrid endpoints. */
export const trc20WatcherHealth: ChannelWatcherHealth = {
  async cursor(db) {
    const rows = await db.select().from(chainCursors).where(sql`${chainCursors.name} IN (${USDT_CURSOR}, ${USDT_READ_THROUGH})`);
    const cursor = rows.find((row) => row.name === USDT_CURSOR);
    const readThrough = rows.find((row) => row.name === USDT_READ_THROUGH);
    if (!cursor) return undefined;
    return { blockTime: new Date(cursor.blockTimestampMs), updatedAt: cursor.updatedAt, readThrough: readThrough ? new Date(readThrough.blockTimestampMs) : undefined };
  },
  endpoints: (db, now) => tronGridEndpointHealth(db, now),
};
