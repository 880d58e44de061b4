import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { Clock } from '../../../clock';
import { normaliseTronAddress } from '../tron/address';
import { RAW_UNITS_PER_CENT, type ChainConfig } from './chain-config';
import { recordTransfers, type PoolTransfer, type RecordedTransfer } from './record-transfers';
import type { TransferEvent, TronGridClient } from './trongrid-client';

export const USDT_CURSOR = 'usdt-trc20';
/**
 * The final block a complete pass has read through (every event the indexer listed up to it is recorded). The cursor
 * moves only with events; this moves with the chain, so health can tell a quiet chain from a watcher behind it.
 */
export const USDT_READ_THROUGH = 'usdt-trc20:read-through';
const MAX_PAGES_PER_TICK = 100;

async function readCursor(db: Database, fallbackMs: number): Promise<number> {
  const { rows } = await db.execute<{ block_timestamp_ms: string }>(sql`SELECT block_timestamp_ms FROM chain_cursors WHERE name = ${USDT_CURSOR}`);
  return rows[0] ? Number(rows[0].block_timestamp_ms) : fallbackMs;
}

async function saveCursor(db: Database, blockTimestampMs: number, name = USDT_CURSOR): Promise<void> {
  await db.execute(sql`
    INSERT INTO chain_cursors (name, block_timestamp_ms, updated_at) VALUES (${name}, ${blockTimestampMs}, now())
    ON CONFLICT (name) DO UPDATE SET block_timestamp_ms = GREATEST(chain_cursors.block_timestamp_ms, EXCLUDED.block_timestamp_ms), updated_at = now()`);
}

/** Every receiving address ever in the pool (a disabled one may still be paid), by its base58 text. */
async function poolAddresses(db: Database): Promise<Map<string, number>> {
  const { rows } = await db.execute<{ id: string; address: string }>(sql`SELECT id, address FROM receiving_addresses WHERE chain = 'TRC20'`);
  return new Map(rows.map((row) => [row.address, Number(row.id)]));
}

function toPoolTransfer(event: TransferEvent, pool: Map<string, number>): PoolTransfer | undefined {
  const to = normaliseTronAddress(event.to);
  const receivingAddressId = to === undefined ? undefined : pool.get(to);
  if (receivingAddressId === undefined) return undefined;
  return {
    chain: 'TRC20',
    rawPerCent: RAW_UNITS_PER_CENT,
    transactionId: event.transactionId,
    eventIndex: event.eventIndex,
    blockNumber: event.blockNumber,
    blockTime: new Date(event.blockTimestampMs),
    from: normaliseTronAddress(event.from) ?? event.from,
    to: to!,
    receivingAddressId,
    valueRaw: BigInt(event.value),
  };
}

export interface WatchResult {
  pages: number;
  events: number;
  recorded: RecordedTransfer[];
  cursorMs: number;
  /** The solidified height this pass trusted: events in later blocks were left for a later pass. */
  solidifiedBlock: number;
  /** Events seen in blocks not solidified yet (visible, but not counted). */
  unsolidified: number;
}

/**
 * One pass of the watcher. It asks for the solidified (final) height first, then reads the contract's confirmed
 * Transfer events from a margin behind the persisted cursor (one request per page, whatever the number of receiving
 * addresses), keeps those to pool addresses in solidified blocks, and moves the cursor on after each page, never
 * past a block that is not solidified. Reading again behind the cursor catches a block the indexer listed late;
 * events read twice are recorded once (unique transaction id and event index). A transfer the indexer calls
 * confirmed in a block above the solidified height is not counted until a later pass finds its block solidified.
 */
export async function watchChainOnce(context: { db: Database; client: TronGridClient; config: ChainConfig; clock: Clock }): Promise<WatchResult> {
  const { db, client, config, clock } = context;
  const probes = client.probeRestingEndpoints();
  try {
    const cursorMs = await readCursor(db, clock.now().getTime() - config.initialLookbackMs);
    const solid = await client.solidifiedBlock();
    const startMs = Math.max(0, cursorMs - config.rereadMarginMs);
    const pool = await poolAddresses(db);
    const result: WatchResult = { pages: 0, events: 0, recorded: [], cursorMs, solidifiedBlock: solid.number, unsolidified: 0 };
    let fromMs = startMs;
    let next: { fingerprint: string; endpoint: string } | undefined;
    let restarts = 0;
    while (result.pages < MAX_PAGES_PER_TICK) {
      let page;
      try {
        page = await client.transferEvents(config.contract, fromMs, next);
      } catch (error) {
        // A fingerprint is only good at the endpoint that issued it: when that one fails, list again elsewhere.
        if (!next || restarts >= 3) throw error;
        restarts += 1;
        next = undefined;
        fromMs = Math.max(startMs, result.cursorMs - config.rereadMarginMs);
        continue;
      }
      result.pages += 1;
      result.events += page.events.length;
      const final = page.events.filter((event) => event.blockNumber <= solid.number);
      result.unsolidified += page.events.length - final.length;
      const relevant = final.map((event) => toPoolTransfer(event, pool)).filter((transfer): transfer is PoolTransfer => transfer !== undefined);
      result.recorded.push(...(await recordTransfers(db, relevant)));
      const newest = final.reduce((max, event) => Math.max(max, event.blockTimestampMs), result.cursorMs);
      if (newest > result.cursorMs) {
        await saveCursor(db, newest);
        result.cursorMs = newest;
      }
      // Past the solidified height nothing more is counted in this pass.
      if (final.length < page.events.length) break;
      if (!page.fingerprint) {
        await saveCursor(db, solid.timestampMs, USDT_READ_THROUGH); // listed to the end, all of it final
        break;
      }
      next = { fingerprint: page.fingerprint, endpoint: page.endpoint };
    }
    return result;
  } finally {
    await probes;
  }
}
