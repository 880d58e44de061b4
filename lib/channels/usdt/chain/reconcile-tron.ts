import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { UpstreamRow } from '../../../reconciliation/bill-row';
import { BillUnavailable } from '../../../reconciliation/bill-source';
import { beijingDayBounds } from '../../../reconciliation/beijing-day';
import { normaliseTronAddress } from '../tron/address';
import { chainConfig, ChainNotConfigured, RAW_UNITS_PER_CENT } from './chain-config';
import { ChainEndpointPool } from './chain-endpoints';
import { TronGridClient } from './trongrid-client';
import { transferRow } from './match-transfers';
import { systemClock } from '../../../clock';

/** Whether TronGrid is configured: TRON is reconciled only then. */
export function tronConfigured(): boolean {
  try {
    chainConfig();
    return true;
  } catch (error) {
    if (error instanceof ChainNotConfigured) return false;
    throw error;
  }
}

/**
 * The day's USDT transfers to our TRON receiving addresses, read again from the chain (TronGrid's contract events from
 * the day's first block time on, page by page, until the day ends), whatever the watcher's cursor says.
 */
export async function* tronTransfers(db: Database, day: string, signal: AbortSignal): AsyncGenerator<UpstreamRow> {
  const config = chainConfig();
  const { start, end } = beijingDayBounds(day)!;
  const { rows } = await db.execute<{ address: string }>(sql`SELECT address FROM receiving_addresses WHERE chain = 'TRC20'`);
  const pool = new Set(rows.map((row) => row.address));
  const client = new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, systemClock), apiKey: config.apiKey, signal });
  const solid = await client.solidifiedBlock();
  if (solid.timestampMs < end.getTime()) throw new BillUnavailable(`the chain is final only up to ${new Date(solid.timestampMs).toISOString()}, before the end of ${day}`);
  let next: { fingerprint: string; endpoint: string } | undefined;
  for (;;) {
    const page = await client.transferEvents(config.contract, start.getTime(), next);
    for (const event of page.events) {
      if (event.blockTimestampMs >= end.getTime()) return;
      const to = normaliseTronAddress(event.to);
      if (to === undefined || !pool.has(to)) continue;
      yield transferRow({ transactionId: event.transactionId, eventIndex: event.eventIndex, to, raw: BigInt(event.value), rawPerCent: RAW_UNITS_PER_CENT, at: new Date(event.blockTimestampMs) });
    }
    if (!page.fingerprint || page.events.length === 0) return;
    next = { fingerprint: page.fingerprint, endpoint: page.endpoint };
  }
}
