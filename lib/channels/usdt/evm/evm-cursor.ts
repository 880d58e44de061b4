import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { evmChainCursors } from './schema';
import type { EvmChainName } from './evm-chains';

export interface EvmCursor {
  blockNumber: bigint;
  blockHash: string;
  reorgDetectedAt: Date | null;
}

type Executor = Pick<Database, 'select' | 'insert' | 'update'>;

export async function loadEvmCursor(db: Executor, chain: EvmChainName): Promise<EvmCursor | undefined> {
  const [row] = await db.select().from(evmChainCursors).where(eq(evmChainCursors.chain, chain));
  return row && { blockNumber: row.blockNumber, blockHash: row.blockHash, reorgDetectedAt: row.reorgDetectedAt };
}

/**
 * Moves the cursor from `expected` (the block the tick started from; undefined for the first) to `next`. Refuses
 * when another watcher moved it meanwhile, so two processes never hand over the same range twice.
 */
export async function advanceEvmCursor(db: Executor, chain: EvmChainName, expected: EvmCursor | undefined, next: { blockNumber: bigint; blockHash: string }): Promise<boolean> {
  if (!expected) {
    const inserted = await db.insert(evmChainCursors).values({ chain, ...next }).onConflictDoNothing().returning({ chain: evmChainCursors.chain });
    return inserted.length === 1;
  }
  const updated = await db
    .update(evmChainCursors)
    .set({ ...next, updatedAt: sql`now()` })
    .where(sql`${evmChainCursors.chain} = ${chain} AND ${evmChainCursors.blockNumber} = ${expected.blockNumber} AND ${evmChainCursors.blockHash} = ${expected.blockHash}`)
    .returning({ chain: evmChainCursors.chain });
  return updated.length === 1;
}

/**
 * The node no longer has the cursor's block: the chain is held (nothing more is read or paid) until an operator acts.
 * Only while the cursor is as the tick read it (`expected`: the same block, and still held if it was held then);
 * false when it has changed since. An operator's resume wins over a tick that read the cursor before it: that tick
 * would otherwise hold the chain again, at once, and undo the resume.
 */
export async function markEvmReorg(db: Executor, chain: EvmChainName, expected: EvmCursor, nodeHash: string): Promise<boolean> {
  const stillHeld = expected.reorgDetectedAt ? sql` AND ${evmChainCursors.reorgDetectedAt} IS NOT NULL` : sql``;
  const updated = await db
    .update(evmChainCursors)
    .set({ reorgDetectedAt: sql`coalesce(${evmChainCursors.reorgDetectedAt}, now())`, reorgNodeHash: nodeHash, updatedAt: sql`now()` })
    .where(sql`${evmChainCursors.chain} = ${chain} AND ${evmChainCursors.blockNumber} = ${expected.blockNumber} AND ${evmChainCursors.blockHash} = ${expected.blockHash}${stillHeld}`)
    .returning({ chain: evmChainCursors.chain });
  return updated.length === 1;
}

/**
 * Forgets the cursors of chains whose node is new: the development sandbox starts fresh ganache chains on every
 * `npm run dev`, and a cursor left from the previous chain would read as a re-org below it.
 */
export async function forgetEvmCursors(db: Pick<Database, 'delete'>, chains: readonly string[]): Promise<void> {
  for (const chain of chains) await db.delete(evmChainCursors).where(eq(evmChainCursors.chain, chain));
}
