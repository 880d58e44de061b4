import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { evmChainCursors } from './schema';
import type { EvmChainName } from './evm-chains';
import type { EvmRpcPool } from './evm-rpc-pool';

/**
 * After a reported re-org the chain stays held until an operator has looked at what the replaced blocks had paid and
 * chooses where reading resumes: `afterBlock` on the node's current chain (below the fork), so the transfers of the
 * chain that won are handed over from there. Returns the block hash the cursor now stands on.
 */
export async function resumeEvmChainAfterReorg(db: Database, chain: EvmChainName, rpc: EvmRpcPool, afterBlock: bigint): Promise<string> {
  const block = await rpc.call((client) => client.getBlock({ blockNumber: afterBlock }));
  const updated = await db
    .update(evmChainCursors)
    .set({ blockNumber: afterBlock, blockHash: block.hash, reorgDetectedAt: null, reorgNodeHash: null, updatedAt: sql`now()` })
    .where(eq(evmChainCursors.chain, chain))
    .returning({ chain: evmChainCursors.chain });
  if (updated.length !== 1) throw new Error(`${chain}: no EVM cursor to resume`);
  return block.hash;
}
