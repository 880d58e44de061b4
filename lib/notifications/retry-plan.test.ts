import { describe, expect, it } from 'vitest';
import { destinationOf } from './destination';
import { MAX_ATTEMPTS, nextAttemptAfter, RETRY_HORIZON_MS } from './retry-plan';

describe('retry plan', () => {
  it('spaces attempts 15 s, 1 min, 3 min, 10 min, 30 min, 1 h, 2 h, 6 h, 15 h apart, then gives up', () => {
    const failedAt = new Date('2026-01-01T00:00:00Z');
    const delays = Array.from({ length: 9 }, (_, index) => (nextAttemptAfter(index + 1, failedAt)!.getTime() - failedAt.getTime()) / 1000);
    expect(delays).toEqual([15, 60, 180, 600, 1800, 3600, 7200, 21600, 54000]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(nextAttemptAfter(10, failedAt)).toBeUndefined();
    expect(RETRY_HORIZON_MS / 1000).toBe(89_055);
  });

  it('keeps the end of the plan where it was when attempts were held back', () => {
    const giveUpAt = new Date('2026-01-02T00:44:15Z');
    // Attempt 3 held back for hours: the 15 h wait before attempt 10 would end past the horizon, so it ends there.
    expect(nextAttemptAfter(9, new Date('2026-01-01T20:00:00Z'), giveUpAt)).toEqual(giveUpAt);
    expect(nextAttemptAfter(2, new Date('2026-01-01T20:00:00Z'), giveUpAt)).toEqual(new Date('2026-01-01T20:01:00Z'));
    // An attempt that fails after the horizon is the last, however few were made.
    expect(nextAttemptAfter(2, new Date('2026-01-02T00:44:15Z'), giveUpAt)).toBeUndefined();
  });
});

describe('destination', () => {
  it.each([
    ['https://Shop.Example.com/notify?x=1', 'shop.example.com'],
    ['https://shop.example.com:443/notify', 'shop.example.com'],
    ['http://user:pw@shop.example.com:8080/n', 'shop.example.com:8080'],
    ['http://127.0.0.1:3351/notify', '127.0.0.1:3351'],
    ['http://[::1]:80/n', '[::1]'],
    ['ftp://shop.example.com/n', null],
    ['not a url', null],
    [null, null],
  ])('%s → %s', (url, destination) => {
    expect(destinationOf(url)).toBe(destination);
  });
});
