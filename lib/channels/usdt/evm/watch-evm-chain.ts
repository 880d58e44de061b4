import { getAddress, parseAbiItem, type Address, type Hash, type PublicClient } from 'viem';
import type { Database } from '../../../db/client';
import type { EvmChainName } from './evm-chains';
import type { EvmChainSettings } from './evm-config';
import { advanceEvmCursor, loadEvmCursor, markEvmReorg, type EvmCursor } from './evm-cursor';
import { isRequestTooLarge, type EvmRpcPool } from './evm-rpc-pool';

export const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** A token Transfer to a receiving address in a final block. (chain, transactionHash, logIndex) identifies it. */
export interface EvmTransfer {
  chain: EvmChainName;
  transactionHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  /** The block's timestamp: an order is paid by a transfer whose block time is inside its window. */
  blockTime: Date;
  from: Address;
  to: Address;
  raw: bigint;
}

/** The node has another block than the cursor's at the cursor's height: a final block was replaced. */
export interface EvmReorg {
  chain: EvmChainName;
  blockNumber: bigint;
  storedHash: string;
  nodeHash: string;
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** What the watcher hands its findings to; phase 2 wires it to order matching. */
export interface EvmTransferSink {
  /**
   * Which of `candidates` (the distinct recipients in a block range, EIP-55 as stored) are receiving addresses on
   * the chain: one lookup per range, so the cost follows the transfers, not the size of the address pool.
   */
  receivingAmong(chain: EvmChainName, candidates: readonly Address[], db: Database): Promise<ReadonlySet<string>>;
  /** Called inside the transaction that moves the cursor past them: recorded there, they are handed over exactly once. */
  onFinalTransfers(chain: EvmChainName, transfers: readonly EvmTransfer[], transaction: Transaction): Promise<void>;
  onReorg(reorg: EvmReorg): Promise<void>;
}

export interface EvmWatchResult {
  chain: EvmChainName;
  finalBlock: bigint | null;
  cursor: bigint | null;
  transfers: number;
  reorg?: EvmReorg;
  /** Another watcher moved the cursor first, or the range changed while it was read: nothing handed over. */
  yielded?: boolean;
}

class RangeChangedWhileRead extends Error {}

/** The chain's last final block by its settings (the `finalized` tag or a depth below the head); null before there is one. */
export async function finalBlockNumber(client: PublicClient, settings: EvmChainSettings): Promise<bigint | null> {
  if (settings.finality.kind === 'finalized-tag') return (await client.getBlock({ blockTag: 'finalized' })).number;
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const final = head - BigInt(settings.finality.blocks);
  return final >= 0n ? final : null;
}

async function blockHash(rpc: EvmRpcPool, blockNumber: bigint): Promise<{ hash: Hash; parentHash: Hash }> {
  const block = await rpc.call((client) => client.getBlock({ blockNumber }));
  return { hash: block.hash, parentHash: block.parentHash };
}

/**
 * One pass over one chain: from the block after the cursor up to the last final block, in ranges of
 * settings.logRange blocks (halved while a provider says the range is too large), at most `maxRanges` ranges.
 * All of the token's Transfer logs in a range are fetched with one eth_getLogs and their recipients looked up at once.
 * Every range must link to the cursor (parent hash) and its logs carry its first and last blocks' hashes; a cursor
 * block the node no longer has is a re-org below the cursor: reported, the chain held, nothing paid. Requests: one a
 * poll while no new block is final; then three a range (its first block, eth_getLogs, its last block) and one a block
 * holding a payment between them, however many receiving addresses there are.
 */
export async function watchEvmChainOnce(input: { db: Database; settings: EvmChainSettings; rpc: EvmRpcPool; sink: EvmTransferSink; maxRanges?: number }): Promise<EvmWatchResult> {
  const { db, settings, rpc, sink } = input;
  const chain = settings.definition.name;
  let cursor = await loadEvmCursor(db, chain);
  const finalBlock = await rpc.call((client) => finalBlockNumber(client, settings));
  const result: EvmWatchResult = { chain, finalBlock, cursor: cursor?.blockNumber ?? null, transfers: 0 };
  if (finalBlock === null) return result;

  if (!cursor) {
    const start = finalBlock > BigInt(settings.initialLookbackBlocks) ? finalBlock - BigInt(settings.initialLookbackBlocks) : 0n;
    const { hash } = await blockHash(rpc, start);
    if (!(await advanceEvmCursor(db, chain, undefined, { blockNumber: start, blockHash: hash }))) return { ...result, yielded: true };
    cursor = { blockNumber: start, blockHash: hash, reorgDetectedAt: null };
    result.cursor = start;
  }

  let position: EvmCursor = cursor;
  if (position.reorgDetectedAt) return reportReorg(db, sink, result, position, (await blockHash(rpc, position.blockNumber)).hash);
  // Nothing new is final: one request this poll. The first range's parent link checks the cursor's block when there is.

  let range = BigInt(settings.logRange);
  for (let ranges = 0; ranges < (input.maxRanges ?? 50) && position.blockNumber < finalBlock; ranges += 1) {
    const from = position.blockNumber + 1n;
    const to = from + range - 1n < finalBlock ? from + range - 1n : finalBlock;
    let scanned: { transfers: EvmTransfer[]; toHash: Hash };
    try {
      scanned = await scanRange(input, position, from, to);
    } catch (error) {
      if (error instanceof RangeChangedWhileRead) return { ...result, yielded: true };
      if (error instanceof ParentMismatch) return reportReorg(db, sink, result, position, error.nodeHash);
      if (isRequestTooLarge(error) && range > 1n) {
        range /= 2n;
        continue;
      }
      throw error;
    }
    const expected: EvmCursor = position;
    const next = { blockNumber: to, blockHash: scanned.toHash };
    const moved = await db.transaction(async (transaction) => {
      if (!(await advanceEvmCursor(transaction, chain, expected, next))) return false;
      if (scanned.transfers.length > 0) await sink.onFinalTransfers(chain, scanned.transfers, transaction);
      return true;
    });
    if (!moved) return { ...result, yielded: true };
    position = { ...next, reorgDetectedAt: null };
    result.cursor = to;
    result.transfers += scanned.transfers.length;
  }
  return result;
}

class ParentMismatch extends Error {
  constructor(readonly nodeHash: string) {
    super('the range does not link to the cursor');
  }
}

async function scanRange(input: { db: Database; settings: EvmChainSettings; rpc: EvmRpcPool; sink: EvmTransferSink }, cursor: EvmCursor, from: bigint, to: bigint) {
  const { db, settings, rpc, sink } = input;
  const chain = settings.definition.name;
  const first = await rpc.call((client) => client.getBlock({ blockNumber: from }));
  if (first.parentHash !== cursor.blockHash) throw new ParentMismatch((await blockHash(rpc, cursor.blockNumber)).hash);
  const logs = await rpc.call((client) => client.getLogs({ address: settings.token, event: TRANSFER_EVENT, fromBlock: from, toBlock: to, strict: true }));
  // Read after the logs: the range's last block as it stands now, which the logs of that block must carry.
  const last = await rpc.call((client) => client.getBlock({ blockNumber: to }));
  if (from === to && last.hash !== first.hash) throw new RangeChangedWhileRead();
  const candidates = [...new Set(logs.map((log) => getAddress(log.args.to)))];
  const receiving = candidates.length === 0 ? new Set<string>() : await sink.receivingAmong(chain, candidates, db);
  const transfers: EvmTransfer[] = [];
  const blockTimes = new Map<bigint, Date>([
    [from, new Date(Number(first.timestamp) * 1000)],
    [to, new Date(Number(last.timestamp) * 1000)],
  ]);
  for (const log of logs) {
    if (log.removed || !receiving.has(getAddress(log.args.to))) continue;
    if ((log.blockNumber === to && log.blockHash !== last.hash) || (log.blockNumber === from && log.blockHash !== first.hash)) throw new RangeChangedWhileRead();
    let blockTime = blockTimes.get(log.blockNumber);
    if (!blockTime) {
      const block = await rpc.call((client) => client.getBlock({ blockNumber: log.blockNumber }));
      if (block.hash !== log.blockHash) throw new RangeChangedWhileRead();
      blockTime = new Date(Number(block.timestamp) * 1000);
      blockTimes.set(log.blockNumber, blockTime);
    }
    transfers.push({ chain, transactionHash: log.transactionHash, logIndex: log.logIndex, blockNumber: log.blockNumber, blockHash: log.blockHash, blockTime, from: getAddress(log.args.from), to: getAddress(log.args.to), raw: log.args.value });
  }
  return { transfers, toHash: last.hash! };
}

/** Holds the chain and reports the re-org; the tick yields instead when the cursor changed since it was read (markEvmReorg). */
async function reportReorg(db: Database, sink: EvmTransferSink, result: EvmWatchResult, cursor: EvmCursor, nodeHash: string): Promise<EvmWatchResult> {
  if (!(await markEvmReorg(db, result.chain, cursor, nodeHash))) return { ...result, yielded: true };
  const reorg: EvmReorg = { chain: result.chain, blockNumber: cursor.blockNumber, storedHash: cursor.blockHash, nodeHash };
  await sink.onReorg(reorg);
  return { ...result, reorg };
}
