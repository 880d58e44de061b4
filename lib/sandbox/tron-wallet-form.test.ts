import { describe, expect, it } from 'vitest';
import { sandboxUsdt, sentMomentsAgo, SAME_PAYMENT_WINDOW_MS } from '../../sandbox/tron/wallet-form';

describe('the sandbox wallet form', () => {
  const now = 1_800_000_000_000;
  const transfers = [{ to: 'TAddress', valueRaw: '12340000', blockTimestampMs: now - 60_000 }];

  it('knows a payment it just sent, so Back does not offer it again', () => {
    expect(sentMomentsAgo(transfers, 'TAddress', '12.34', now)).toBe(true);
    expect(sentMomentsAgo(transfers, 'TAddress', '12.340000', now)).toBe(true);
  });

  it('offers another amount, another address, an old transfer or nonsense as usual', () => {
    expect(sentMomentsAgo(transfers, 'TAddress', '12.35', now)).toBe(false);
    expect(sentMomentsAgo(transfers, 'TOther', '12.34', now)).toBe(false);
    expect(sentMomentsAgo(transfers, 'TAddress', '12.34', now + SAME_PAYMENT_WINDOW_MS)).toBe(false);
    expect(sentMomentsAgo(transfers, 'TAddress', 'twelve', now)).toBe(false);
  });

  it('shows raw units as USDT', () => {
    expect(sandboxUsdt('12340000')).toBe('12.34');
    expect(sandboxUsdt('1000001')).toBe('1.000001');
  });
});
