/**
 * How full a channel's shared receiving pool is, for the health page and `/healthz?details`: per network, per amount
 * band, how many slots orders hold and how many are left at the busiest amount. A band whose busiest amount has no
 * free slot answers that amount's next submits at +0.01, or 1010 when that is held too; and, while several merchants
 * share the pool, where a merchant has reached its share.
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
  /**
   * Amounts at which a merchant's orders hold all its share of the amount and the next cent allows (the limit the
   * operator set for it, else the default while the pool is shared): its next order of that amount is refused
   * (1010), free slots or not.
   */
  amountsAtShare: number;
}

export interface PoolPressure {
  /** The network (receiving_addresses.chain). */
  chain: string;
  /** Enabled receiving addresses: the free slots of an amount no order holds. */
  addresses: number;
  /** Merchants that may place orders (order permission on): with one, nobody contends for its slots. */
  merchants: number;
  /**
   * What each merchant may hold by default while others may place orders: slots of one amount and the next cent, and
   * slots in all; null while at most one merchant may, when no default limit weighs on it (limits an operator set
   * still do).
   */
  defaultShare: { amountSlots: number; heldSlots: number } | null;
  bands: PoolBandPressure[];
}
