import { describe, expect, it } from 'vitest';
import { decimalOption } from './decimal-option';
import { UsageError } from './usage-error';

describe('decimalOption', () => {
  const spec = { name: 'minutes', fallback: 60, max: 1440, usage: 'usage: …' };

  it('reads a decimal, and the fallback when the option is absent', () => {
    expect(decimalOption('0.5', spec)).toBe(0.5);
    expect(decimalOption('0', spec)).toBe(0);
    expect(decimalOption(undefined, spec)).toBe(60);
  });

  it('refuses what is no decimal, past the maximum, or 0 where it must be above 0, naming the option', () => {
    for (const bad of ['-1', '1e3', 'soon', '', '1441']) expect(() => decimalOption(bad, spec)).toThrow(new UsageError(`--minutes must be a number from 0, at most 1440 (got ${bad})`, 'usage: …'));
    expect(() => decimalOption('0', { ...spec, aboveZero: true })).toThrow('--minutes must be a number above 0, at most 1440 (got 0)');
  });
});
