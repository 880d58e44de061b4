import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { Clock } from '../../../clock';
import { tronAddressFromAccountBytes, tronAddressToEventHex } from '../tron/address';
import { RAW_UNITS_PER_CENT, type ChainConfig } from './chain-config';
import { recordTransfers, type PoolTransfer, type RecordedTransfer } from './record-transfers';
import type { TronGridClient } from './trongrid-client';
import type { TronBlock } from './tron-blocks';
import { observeFinalToCredited } from './credit-latency';

/** The time of the last block read (health shows it as the cursor). */
export const USDT_CURSOR = 'usdt-trc20';
/** The last solidified block read, by number and time: where the next pass starts. */
export const USDT_READ_THROUGH = 'usdt-trc20:read-through';
/** TRON produces a block every 3 s. */
export const TRON_BLOCK_MS = 3000;
/** Blocks asked for per request (java-tron answers at most 100): 60 s of chain, a few MB of mainnet JSON. */
export const BLOCKS_PER_REQUEST = 20;
/** A pass catches up at most this many requests (90 minutes of chain) before the next one goes on. */
const MAX_REQUESTS_PER_TICK = 90;
/** A cursor from before block numbers were kept is a block time: start this many blocks before its estimate. */
const LEGACY_CURSOR_MARGIN_BLOCKS = 20;

interface BlockCursor {
  blockNumber: number;
  timestampMs: number;
}

async function readCursor(db: Database): Promise<{ block?: BlockCursor; legacyMs?: number }> {
  const { rows } = await db.execute<{ name: string; block_timestamp_ms: string; block_number: string | null }>(
    sql`SELECT name, block_timestamp_ms, block_number FROM chain_cursors WHERE name IN (${USDT_CURSOR}, ${USDT_READ_THROUGH})`,
  );
  const through = rows.find((row) => row.name === USDT_READ_THROUGH);
  if (through?.block_number != null) return { block: { blockNumber: Number(through.block_number), timestampMs: Number(through.block_timestamp_ms) } };
  const times = rows.map((row) => Number(row.block_timestamp_ms));
  return times.length > 0 ? { legacyMs: Math.max(...times) } : {};
}

async function saveCursor(db: Database, block: BlockCursor): Promise<void> {
  await db.execute(sql`
    INSERT INTO chain_cursors (name, block_timestamp_ms, block_number, updated_at)
    VALUES (${USDT_CURSOR}, ${block.timestampMs}, NULL, now()), (${USDT_READ_THROUGH}, ${block.timestampMs}, ${block.blockNumber}, now())
    ON CONFLICT (name) DO UPDATE SET block_timestamp_ms = GREATEST(chain_cursors.block_timestamp_ms, EXCLUDED.block_timestamp_ms),
      block_number = GREATEST(chain_cursors.block_number, EXCLUDED.block_number), updated_at = now()`);
}

/** Every receiving address ever in the pool (a disabled one may still be paid), by its 41-prefixed hex. */
async function poolAddresses(db: Database): Promise<Map<string, { id: number; address: string }>> {
  const { rows } = await db.execute<{ id: string; address: string }>(sql`SELECT id, address FROM receiving_addresses WHERE chain = 'TRC20'`);
  return new Map(rows.map((row) => [`41${tronAddressToEventHex(row.address).slice(2)}`, { id: Number(row.id), address: row.address }]));
}

const base58OfHex = (hex: string) => tronAddressFromAccountBytes(Buffer.from(hex.slice(2), 'hex'));

function poolTransfers(block: TronBlock, pool: Map<string, { id: number; address: string }>): PoolTransfer[] {
  return block.transfers.flatMap((transfer) => {
    const receiving = pool.get(transfer.toHex);
    if (!receiving) return [];
    return [{
      chain: 'TRC20',
      rawPerCent: RAW_UNITS_PER_CENT,
      transactionId: transfer.transactionId,
      eventIndex: 0, // a direct call's Transfer is its transaction's first event, as the events API numbers it
      blockNumber: block.number,
      blockTime: new Date(block.timestampMs),
      from: base58OfHex(transfer.fromHex),
      to: receiving.address,
      receivingAddressId: receiving.id,
      valueRaw: transfer.value,
    }];
  });
}

/** When the last request of this process was answered: blocks it did not list became final after that. */
const lastAnsweredAt = new Map<string, number>();

export interface WatchResult {
  /** TronGrid requests this pass sent (each one answered). */
  requests: number;
  blocks: number;
  transactions: number;
  recorded: RecordedTransfer[];
  /** The time of the last block read through. */
  cursorMs: number;
  /** The last block read through (solidified). */
  blockNumber: number;
}

/** Where a pass with no block cursor starts: the legacy time cursor's block, or CHAIN_INITIAL_LOOKBACK_MS back. */
async function startingCursor(client: TronGridClient, config: ChainConfig, legacyMs: number | undefined, nowMs: number): Promise<BlockCursor> {
  const solid = await client.solidifiedBlock();
  // Slots missed by a producer make fewer blocks than slots: counting slots back never starts after the wanted block.
  const behindMs = Math.max(0, solid.timestampMs - (legacyMs ?? nowMs - config.initialLookbackMs));
  const blocksBack = Math.ceil(behindMs / TRON_BLOCK_MS) + (legacyMs === undefined ? 0 : LEGACY_CURSOR_MARGIN_BLOCKS);
  const blockNumber = Math.max(0, solid.number - blocksBack);
  return { blockNumber, timestampMs: Math.min(solid.timestampMs, legacyMs ?? solid.timestampMs - blocksBack * TRON_BLOCK_MS) };
}

/**
 * One pass of the watcher: it reads the solidified blocks after its cursor, BLOCKS_PER_REQUEST at a time
 * (`/walletsolidity/getblockbylimitnext`: the solidity node serves final blocks only, so no separate finality check is
 * needed), keeps the USDT transfers to pool addresses (one request per range, whatever the number of addresses and
 * the chain's traffic), records and matches them, and moves the cursor to the last block read. A block the node does
 * not have yet (it is behind, or a block reached it late) is simply asked for again on the next pass: nothing after
 * the cursor is skipped, and a transfer read twice is recorded once (unique transaction id and event index).
 * In steady state a pass is one request, however busy the chain.
 */
export async function watchChainOnce(context: { db: Database; client: TronGridClient; config: ChainConfig; clock: Clock }): Promise<WatchResult> {
  const { db, client, config, clock } = context;
  const probes = client.probeRestingEndpoints();
  try {
    const stored = await readCursor(db);
    let cursor = stored.block ?? (await startingCursor(client, config, stored.legacyMs, clock.now().getTime()));
    const pool = await poolAddresses(db);
    const contractHex = `41${tronAddressToEventHex(config.contract).slice(2)}`;
    const result: WatchResult = { requests: 0, blocks: 0, transactions: 0, recorded: [], cursorMs: cursor.timestampMs, blockNumber: cursor.blockNumber };
    while (result.requests < MAX_REQUESTS_PER_TICK) {
      const askedAt = clock.now().getTime();
      const next = cursor.blockNumber + 1;
      const { blocks } = await client.solidifiedBlocks(next, next + BLOCKS_PER_REQUEST, contractHex);
      result.requests += 1;
      const since = lastAnsweredAt.get(config.contract) ?? askedAt - config.pollMs;
      lastAnsweredAt.set(config.contract, askedAt);
      // Only the unbroken run from the cursor on: a block missing from the answer is asked for again.
      const run: TronBlock[] = [];
      for (const block of blocks) {
        if (block.number !== next + run.length) break;
        run.push(block);
      }
      if (run.length === 0) break;
      const recorded = await recordTransfers(db, run.flatMap((block) => poolTransfers(block, pool)));
      observeFinalToCredited('TRC20', recorded, { from: since, to: askedAt }, clock.now().getTime());
      result.recorded.push(...recorded);
      result.blocks += run.length;
      result.transactions += run.reduce((sum, block) => sum + block.transactionCount, 0);
      const last = run.at(-1)!;
      cursor = { blockNumber: last.number, timestampMs: last.timestampMs };
      await saveCursor(db, cursor);
      result.cursorMs = cursor.timestampMs;
      result.blockNumber = cursor.blockNumber;
      if (run.length < BLOCKS_PER_REQUEST) break; // caught up with the solidified height
    }
    return result;
  } finally {
    await probes;
  }
}
