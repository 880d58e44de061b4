/**
 * How full a channel's shared receiving pool is, for the health page and `/healthz?details`: per network, per amount
 * band, how many slots orders hold and how many are left at the busiest amount. A band whose busiest amount has no
 * free slot answers that amount's next submits at +0.01, or 1010 when that is held too.
 */
export interface PoolBandPressure {
  /** The band's amounts, e.g. "10–100" (the lower bound included, the upper not; "1000+" for the last). */
  band: string;
  /** Slots held by orders at amounts in the band. */
  heldSlots: number;
  /** Distinct amounts held. */
  heldAmounts: number;
  /** Amounts held on every enabled address: none of them is free at that exact amount. */
  fullAmounts: number;
  /** Free slots at the busiest amount of the band (every address when none is held). */
  fewestFreeSlots: number;
  /** That amount, or null when the band holds none. */
  busiestAmount: string | null;
}

export interface PoolPressure {
  /** The network (receiving_addresses.chain). */
  chain: string;
  /** Enabled receiving addresses: the free slots of an amount no order holds. */
  addresses: number;
  bands: PoolBandPressure[];
}
