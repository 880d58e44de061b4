import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isTronAddress, tronAddressFromAccountBytes } from './address';

describe('TRON addresses (base58check)', () => {
  it('accepts real mainnet addresses', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true); // the USDT contract
    expect(isTronAddress('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toBe(true);
  });

  it('refuses a changed character, wrong length, wrong prefix and non-base58 text', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe(false);
    expect(isTronAddress('1R7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t')).toBe(false);
    expect(isTronAddress('')).toBe(false);
  });

  it('encodes account bytes to addresses that validate', () => {
    for (let index = 0; index < 20; index += 1) expect(isTronAddress(tronAddressFromAccountBytes(randomBytes(20)))).toBe(true);
  });
});

describe('TRON address forms', () => {
  it('reads base58, 41-hex and 0x-hex, and writes the event hex form', async () => {
    const { normaliseTronAddress, tronAddressToEventHex } = await import('./address');
    const usdt = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const hex = tronAddressToEventHex(usdt);
    expect(hex).toBe('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(normaliseTronAddress(hex)).toBe(usdt);
    expect(normaliseTronAddress(`41${hex.slice(2)}`)).toBe(usdt);
    expect(normaliseTronAddress(usdt)).toBe(usdt);
    expect(normaliseTronAddress('0x1234')).toBeUndefined();
    expect(normaliseTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBeUndefined();
  });
});
