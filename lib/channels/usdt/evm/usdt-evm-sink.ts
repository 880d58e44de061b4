import type { Address } from 'viem';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { receivingAddresses } from '../../../db/schema';
import { recordTransfersIn, type PoolTransfer, type RecordedTransfer } from '../chain/record-transfers';
import { EVM_CHAINS, type EvmChainName } from './evm-chains';
import { rawUnitsPerCent } from './evm-amounts';
import { receivingAddressesAmong } from './receiving-address-lookup';
import type { EvmReorg, EvmTransfer, EvmTransferSink } from './watch-evm-chain';

/**
 * The USDT channel's side of the EVM watcher: a final transfer to a pool address is recorded and judged exactly like
 * a TRON one (record-transfers.ts: exact amount pays, late/short/over/unmatched kept for the operator), keyed by
 * (chain, transaction hash, log index), inside the transaction that moves the chain's cursor. The amount is matched
 * in raw units: a whole number of cents (10^4 raw per cent with 6 decimals, 10^16 with 18) or no order at all.
 */
export function usdtEvmSink(options: { log?: (line: string) => void; onRecorded?: (recorded: RecordedTransfer[]) => void } = {}): EvmTransferSink {
  return {
    receivingAmong: (chain, candidates, db) => receivingAddressesAmong(db, chain, candidates),
    async onFinalTransfers(chain, transfers, transaction) {
      const tx = transaction as unknown as Database;
      const ids = await addressIds(tx, chain, [...new Set(transfers.map((transfer) => transfer.to))]);
      const pool = transfers.flatMap((transfer) => {
        const receivingAddressId = ids.get(transfer.to);
        return receivingAddressId === undefined ? [] : [toPoolTransfer(transfer, receivingAddressId)];
      });
      const recorded = await recordTransfersIn(tx, pool);
      options.onRecorded?.(recorded);
    },
    async onReorg(reorg: EvmReorg) {
      options.log?.(`evm ${reorg.chain}: final block ${reorg.blockNumber} was replaced (stored ${reorg.storedHash}, node ${reorg.nodeHash}); nothing more is paid on ${reorg.chain} until an operator runs \`npm run admin -- evm resume --chain ${reorg.chain} --after-block <n>\``);
    },
  };
}

async function addressIds(tx: Database, chain: EvmChainName, addresses: readonly Address[]): Promise<Map<string, number>> {
  const rows = await tx
    .select({ id: receivingAddresses.id, address: receivingAddresses.address })
    .from(receivingAddresses)
    .where(and(eq(receivingAddresses.chain, chain), inArray(receivingAddresses.address, [...addresses])));
  return new Map(rows.map((row) => [row.address, row.id]));
}

function toPoolTransfer(transfer: EvmTransfer, receivingAddressId: number): PoolTransfer {
  return {
    chain: transfer.chain,
    rawPerCent: rawUnitsPerCent(EVM_CHAINS[transfer.chain].decimals),
    transactionId: transfer.transactionHash,
    eventIndex: transfer.logIndex,
    blockNumber: Number(transfer.blockNumber),
    blockTime: transfer.blockTime,
    windowTime: new Date(transfer.blockTime.getTime() + 999),
    from: transfer.from,
    to: transfer.to,
    receivingAddressId,
    valueRaw: transfer.raw,
  };
}
