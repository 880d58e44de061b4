import { eq, isNotNull } from 'drizzle-orm';
import { recordAudit } from '../../../audit/record-audit';
import type { Database } from '../../../db/client';
import { DomainError } from '../../../errors/domain-error';
import { isEvmChainName, type EvmChainName } from './evm-chains';
import { evmChainCursors } from './schema';

export interface HeldEvmChain {
  chain: string;
  blockNumber: string;
  blockHash: string;
  reorgDetectedAt: Date;
  reorgNodeHash: string | null;
}

/** The EVM chains the watcher holds after a re-org below its cursor, until an operator resumes them. */
export async function heldEvmChains(db: Database): Promise<HeldEvmChain[]> {
  const rows = await db.select().from(evmChainCursors).where(isNotNull(evmChainCursors.reorgDetectedAt)).orderBy(evmChainCursors.chain);
  return rows.map((row) => ({ chain: row.chain, blockNumber: row.blockNumber.toString(), blockHash: row.blockHash, reorgDetectedAt: row.reorgDetectedAt!, reorgNodeHash: row.reorgNodeHash }));
}

/**
 * Resumes a held chain after `afterBlock` (the console's form and `npm run admin -- evm resume`): the block is read
 * from the chain's own nodes (EVM_<CHAIN>_RPC_URLS), the cursor moved onto it, audited with where it stood.
 */
export async function resumeEvmChain(db: Database, input: { chain: string; afterBlock: bigint; actor: string; reason?: string }): Promise<{ chain: EvmChainName; blockHash: string }> {
  const chain = input.chain.toUpperCase();
  if (!isEvmChainName(chain)) throw new DomainError('invalid_parameter', { message: `chain: ${input.chain} is not an EVM chain` });
  const [{ evmSettings }, { resumeEvmChainAfterReorg }, { EvmRpcPool }] = await Promise.all([import('./evm-config'), import('./resume-after-reorg'), import('./evm-rpc-pool')]);
  const settings = evmSettings().chains.find((entry) => entry.definition.name === chain);
  if (!settings) throw new DomainError('invalid_parameter', { message: `chain: ${chain} is not enabled (USDT_EVM_CHAINS)` });
  const [before] = await db.select().from(evmChainCursors).where(eq(evmChainCursors.chain, chain)).limit(1);
  const rpc = new EvmRpcPool(chain, settings.rpcUrls, { chainId: settings.chainId, rateLimitBackoffMs: 1000 });
  const blockHash = await resumeEvmChainAfterReorg(db, chain, rpc, input.afterBlock);
  await recordAudit(db, {
    actor: input.actor,
    action: 'evm.resume',
    subject: `chain:${chain}`,
    reason: input.reason,
    before: before ? { blockNumber: before.blockNumber.toString(), blockHash: before.blockHash, reorgNodeHash: before.reorgNodeHash } : null,
    after: { blockNumber: input.afterBlock.toString(), blockHash },
  });
  return { chain, blockHash };
}
