import { and, eq, inArray } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Database } from '../../../db/client';
import { receivingAddresses } from '../../../db/schema';
import type { EvmChainName } from './evm-chains';

/**
 * Which of a block range's recipients are in the operator's pool for the chain (disabled ones too: a transfer to one
 * is still kept for the operator). One indexed query on (chain, address) per range: its cost follows the number
 * of recipients in the range, never the size of the pool. Addresses are stored in their EIP-55 form.
 */
export async function receivingAddressesAmong(db: Database, chain: EvmChainName, candidates: readonly Address[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const rows = await db
    .select({ address: receivingAddresses.address })
    .from(receivingAddresses)
    .where(and(eq(receivingAddresses.chain, chain), inArray(receivingAddresses.address, [...candidates])));
  return new Set(rows.map((row) => row.address));
}
