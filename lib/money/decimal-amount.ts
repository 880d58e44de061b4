/** Money at the edges is a decimal string with at most 2 places; inside it is an integer count of minor units. */
const DECIMAL_2DP = /^[0-9]{1,15}(?:\.[0-9]{1,2})?$/;

/** Parses "12", "12.5", "12.50" into 1250n; returns undefined for anything else (signs, exponents, non-ASCII digits). */
export function parseMinorUnits(text: string): bigint | undefined {
  if (!DECIMAL_2DP.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

export function formatMinorUnits(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const absolute = minor < 0n ? -minor : minor;
  return `${sign}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
}
