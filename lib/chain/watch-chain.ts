import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Clock } from '../clock';
import { normaliseTronAddress } from '../tron/address';
import type { ChainConfig } from './chain-config';
import { recordTransfers, type PoolTransfer, type RecordedTransfer } from './record-transfers';
import type { TransferEvent, TronGridClient } from './trongrid-client';

export const USDT_CURSOR = 'usdt-trc20';
const MAX_PAGES_PER_TICK = 100;

async function readCursor(db: Database, fallbackMs: number): Promise<number> {
  const { rows } = await db.execute<{ block_timestamp_ms: string }>(sql`SELECT block_timestamp_ms FROM chain_cursors WHERE name = ${USDT_CURSOR}`);
  return rows[0] ? Number(rows[0].block_timestamp_ms) : fallbackMs;
}

async function saveCursor(db: Database, blockTimestampMs: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO chain_cursors (name, block_timestamp_ms, updated_at) VALUES (${USDT_CURSOR}, ${blockTimestampMs}, now())
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
}

/**
 * One pass of the watcher: reads the contract's confirmed Transfer events from the persisted cursor (one request
 * per page, whatever the number of receiving addresses), keeps those to pool addresses, and moves the cursor on
 * after each page. Re-reading the cursor's own timestamp after a restart is harmless: transfers are unique.
 */
export async function watchChainOnce(context: { db: Database; client: TronGridClient; config: ChainConfig; clock: Clock }): Promise<WatchResult> {
  const { db, client, config, clock } = context;
  const startMs = await readCursor(db, clock.now().getTime() - config.initialLookbackMs);
  const pool = await poolAddresses(db);
  const result: WatchResult = { pages: 0, events: 0, recorded: [], cursorMs: startMs };
  let fingerprint: string | undefined;
  do {
    const page = await client.transferEvents(config.contract, startMs, fingerprint);
    result.pages += 1;
    result.events += page.events.length;
    const relevant = page.events.map((event) => toPoolTransfer(event, pool)).filter((transfer): transfer is PoolTransfer => transfer !== undefined);
    result.recorded.push(...(await recordTransfers(db, relevant)));
    const newest = page.events.reduce((max, event) => Math.max(max, event.blockTimestampMs), result.cursorMs);
    if (newest > result.cursorMs) {
      await saveCursor(db, newest);
      result.cursorMs = newest;
    }
    fingerprint = page.fingerprint;
  } while (fingerprint && result.pages < MAX_PAGES_PER_TICK);
  return result;
}
