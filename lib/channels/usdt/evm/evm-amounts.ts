/**
 * Order amounts are cents of USDT; on chain they are raw token units: 10^(decimals − 2) raw units per cent, so
 * 10^4 with 6 decimals (Ethereum, Polygon) and 10^16 with 18 (BNB Smart Chain). All bigint: never a float.
 */
export function rawUnitsPerCent(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 2) throw new RangeError(`a USDT token needs at least 2 decimals (got ${decimals})`);
  return 10n ** BigInt(decimals - 2);
}

export function centsToRaw(cents: bigint, decimals: number): bigint {
  if (cents < 0n) throw new RangeError(`cents must not be negative (got ${cents})`);
  return cents * rawUnitsPerCent(decimals);
}

/** The amount in cents when `raw` is a whole number of cents; null when it is not (it can then match no order). */
export function rawToExactCents(raw: bigint, decimals: number): bigint | null {
  const unit = rawUnitsPerCent(decimals);
  return raw % unit === 0n ? raw / unit : null;
}

/** A raw amount as a USDT decimal string with every digit kept, for messages and the operator's lists. */
export function formatRaw(raw: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (raw % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${raw / scale}${fraction ? `.${fraction}` : ''}`;
}
