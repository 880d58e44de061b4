import { describe, expect, it } from 'vitest';
import { readableAmount } from './amounts';

describe('amounts as a reader reads them', () => {
  it('groups thousands and writes one currency style per language, from the written decimal', () => {
    expect(readableAmount('1234567.89', 'CNY', 'en')).toBe('1,234,567.89 CNY');
    expect(readableAmount('1234567.89', 'CNY', 'zh-CN')).toBe('¥1,234,567.89');
    expect(readableAmount('999.00', 'CNY', 'zh-CN')).toBe('¥999.00');
    expect(readableAmount('12000.5', 'USDT', 'zh-CN')).toBe('12,000.5 USDT');
    expect(readableAmount('-1000.00', 'CNY', 'en')).toBe('-1,000.00 CNY');
    // Exact at any size: no float on the way.
    expect(readableAmount('90071992547409931.01', 'USDT', 'en')).toBe('90,071,992,547,409,931.01 USDT');
  });
});
