import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextAttemptAfter } from './retry-plan';

describe('retry plan', () => {
  it('spaces attempts 15 s, 1 min, 3 min, 10 min, 30 min, 1 h, 2 h, 6 h, 15 h apart, then gives up', () => {
    const failedAt = new Date('2026-01-01T00:00:00Z');
    const delays = Array.from({ length: 9 }, (_, index) => (nextAttemptAfter(index + 1, failedAt)!.getTime() - failedAt.getTime()) / 1000);
    expect(delays).toEqual([15, 60, 180, 600, 1800, 3600, 7200, 21600, 54000]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(nextAttemptAfter(10, failedAt)).toBeUndefined();
  });
});
