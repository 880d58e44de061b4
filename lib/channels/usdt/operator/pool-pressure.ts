import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { formatMinorUnits } from '../../../money/decimal-amount';
import type { PoolPressure } from '../../pool-pressure';

/** Amount bands by powers of ten, in USDT cents: below 1, 1–10, 10–100, 100–1000, 1000 and more. */
const BAND_BOUNDS = [100n, 1_000n, 10_000n, 100_000n];
const BAND_NAMES = ['0–1', '1–10', '10–100', '100–1000', '1000+'];

/**
 * The receiving pool's pressure per network and amount band, from the slots orders hold on enabled addresses
 * (pending orders and expired ones in their cool-down). One pass over the held slots (orders_usdt_slot_holder_key),
 * grouped by amount and then by band; networks with enabled addresses are listed even when nothing is held.
 */
export async function usdtPoolPressure(db: Database): Promise<PoolPressure[]> {
  const { rows } = await db.execute<{ chain: string; addresses: number; band: number | null; held_slots: number; held_amounts: number; full_amounts: number; busiest_holders: number; busiest_amount: string | null }>(sql`
    WITH pool AS (
      SELECT chain, count(*)::int AS addresses FROM receiving_addresses WHERE enabled GROUP BY chain
    ), by_amount AS (
      SELECT a.chain, o.pay_amount_minor AS amount, count(*)::int AS holders
      FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id
      WHERE o.holds_slot AND a.enabled
      GROUP BY a.chain, o.pay_amount_minor
    ), by_band AS (
      SELECT chain, width_bucket(amount, ${`{${BAND_BOUNDS.join(',')}}`}::bigint[]) AS band, sum(holders)::int AS held_slots, count(*)::int AS held_amounts,
             max(holders) AS busiest_holders, (array_agg(amount::text ORDER BY holders DESC, amount))[1] AS busiest_amount, array_agg(holders) AS holders
      FROM by_amount GROUP BY chain, band
    )
    SELECT p.chain, p.addresses, b.band, coalesce(b.held_slots, 0) AS held_slots, coalesce(b.held_amounts, 0) AS held_amounts,
           coalesce((SELECT count(*)::int FROM unnest(b.holders) AS h WHERE h >= p.addresses), 0) AS full_amounts,
           coalesce(b.busiest_holders, 0) AS busiest_holders, b.busiest_amount
    FROM pool p LEFT JOIN by_band b ON b.chain = p.chain
    ORDER BY p.chain, b.band`);
  const pools = new Map<string, PoolPressure>();
  for (const row of rows) {
    let pool = pools.get(row.chain);
    if (!pool) {
      pool = {
        chain: row.chain,
        addresses: row.addresses,
        bands: BAND_NAMES.map((band) => ({ band, heldSlots: 0, heldAmounts: 0, fullAmounts: 0, fewestFreeSlots: row.addresses, busiestAmount: null })),
      };
      pools.set(row.chain, pool);
    }
    if (row.band === null) continue;
    pool.bands[row.band] = {
      band: BAND_NAMES[row.band]!,
      heldSlots: row.held_slots,
      heldAmounts: row.held_amounts,
      fullAmounts: row.full_amounts,
      fewestFreeSlots: Math.max(0, row.addresses - row.busiest_holders),
      busiestAmount: row.busiest_amount === null ? null : formatMinorUnits(BigInt(row.busiest_amount)),
    };
  }
  return [...pools.values()];
}
