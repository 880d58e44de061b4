import { describe, expect, it } from 'vitest';
import { formatMinorUnits, parseMinorUnits } from './decimal-amount';

describe('decimal amounts', () => {
  it.each([
    ['12', 1200n],
    ['12.5', 1250n],
    ['12.50', 1250n],
    ['0.01', 1n],
    ['0', 0n],
    ['999999999999999.99', 99999999999999999n],
  ])('parses %s', (text, minor) => expect(parseMinorUnits(text)).toBe(minor));

  it.each(['', '1.234', '-1', '+1', '1e2', '.5', '5.', ' 1', '1 ', '１０', '١٢', '0x10', 'NaN', 'Infinity', '1,5', '1000000000000000'])(
    'refuses %j',
    (text) => expect(parseMinorUnits(text)).toBeUndefined(),
  );

  it('formats with exactly 2 places', () => {
    expect(formatMinorUnits(1n)).toBe('0.01');
    expect(formatMinorUnits(1250n)).toBe('12.50');
    expect(formatMinorUnits(100n)).toBe('1.00');
    expect(formatMinorUnits(-5n)).toBe('-0.05');
  });
});
