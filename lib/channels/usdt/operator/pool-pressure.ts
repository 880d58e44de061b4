import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { formatMinorUnits } from '../../../money/decimal-amount';
import type { PoolPressure } from '../../pool-pressure';
import { DEFAULT_MAX_HELD_SLOTS } from '../fair-share';

/** Amount bands by powers of ten, in USDT cents: below 1, 1–10, 10–100, 100–1000, 1000 and more. */
const BAND_BOUNDS = [100n, 1_000n, 10_000n, 100_000n];
const BAND_NAMES = ['0–1', '1–10', '10–100', '100–1000', '1000+'];

type PressureRow = {
  chain: string;
  addresses: number;
  merchants: number;
  band: number | null;
  held_slots: number;
  held_amounts: number;
  full_amounts: number;
  busiest_holders: number;
  busiest_amount: string | null;
  amounts_at_share: number;
};

/**
 * The receiving pool's pressure per network and amount band, from the slots orders hold on enabled addresses
 * (pending orders and expired ones in their cool-down). One pass over the held slots (orders_usdt_slot_holder_key),
 * grouped by amount and then by band, and by merchant and amount for the amounts where a merchant holds its whole
 * share (fair-share.ts: its limit of one amount and the next cent, the operator's or, while another merchant may
 * place orders, the default of one slot per address); networks with enabled addresses are listed even when nothing
 * is held.
 */
export async function usdtPoolPressure(db: Database): Promise<PoolPressure[]> {
  const bounds = `{${BAND_BOUNDS.join(',')}}`;
  const { rows } = await db.execute<PressureRow>(sql`
    WITH pool AS (
      SELECT chain, count(*)::int AS addresses FROM receiving_addresses WHERE enabled GROUP BY chain
    ), able AS (
      SELECT count(*)::int AS merchants FROM merchants WHERE order_permission
    ), by_merchant AS (
      SELECT a.chain, o.merchant_id, o.pay_amount_minor AS amount, count(*)::int AS slots
      FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id
      WHERE o.holds_slot AND a.enabled
      GROUP BY a.chain, o.merchant_id, o.pay_amount_minor
    ), by_amount AS (
      SELECT chain, amount, sum(slots)::int AS holders FROM by_merchant GROUP BY chain, amount
    ), at_share AS (
      SELECT h.chain, width_bucket(h.amount, ${bounds}::bigint[]) AS band, count(DISTINCT h.amount)::int AS amounts
      FROM by_merchant h
      JOIN pool p ON p.chain = h.chain
      JOIN merchants m ON m.id = h.merchant_id
      CROSS JOIN able
      LEFT JOIN by_merchant n ON n.chain = h.chain AND n.merchant_id = h.merchant_id AND n.amount = h.amount + 1
      LEFT JOIN usdt_merchant_limits l ON l.merchant_id = h.merchant_id
      CROSS JOIN LATERAL (
        SELECT coalesce(l.max_amount_slots, CASE WHEN able.merchants > (CASE WHEN m.order_permission THEN 1 ELSE 0 END) THEN p.addresses ELSE 0 END) AS share
      ) AS limits
      WHERE limits.share > 0 AND h.slots + coalesce(n.slots, 0) >= limits.share
      GROUP BY h.chain, band
    ), by_band AS (
      SELECT chain, width_bucket(amount, ${bounds}::bigint[]) AS band, sum(holders)::int AS held_slots, count(*)::int AS held_amounts,
             max(holders) AS busiest_holders, (array_agg(amount::text ORDER BY holders DESC, amount))[1] AS busiest_amount, array_agg(holders) AS holders
      FROM by_amount GROUP BY chain, band
    )
    SELECT p.chain, p.addresses, able.merchants, b.band, coalesce(b.held_slots, 0) AS held_slots, coalesce(b.held_amounts, 0) AS held_amounts,
           coalesce((SELECT count(*)::int FROM unnest(b.holders) AS h WHERE h >= p.addresses), 0) AS full_amounts,
           coalesce(b.busiest_holders, 0) AS busiest_holders, b.busiest_amount, coalesce(s.amounts, 0) AS amounts_at_share
    FROM pool p CROSS JOIN able
    LEFT JOIN by_band b ON b.chain = p.chain
    LEFT JOIN at_share s ON s.chain = b.chain AND s.band = b.band
    ORDER BY p.chain, b.band`);
  const pools = new Map<string, PoolPressure>();
  for (const row of rows) {
    let pool = pools.get(row.chain);
    if (!pool) {
      pool = {
        chain: row.chain,
        addresses: row.addresses,
        merchants: row.merchants,
        defaultShare: row.merchants > 1 ? { amountSlots: row.addresses, heldSlots: DEFAULT_MAX_HELD_SLOTS } : null,
        bands: BAND_NAMES.map((band) => ({ band, heldSlots: 0, heldAmounts: 0, fullAmounts: 0, fewestFreeSlots: row.addresses, busiestAmount: null, amountsAtShare: 0 })),
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
      amountsAtShare: row.amounts_at_share,
    };
  }
  return [...pools.values()];
}
