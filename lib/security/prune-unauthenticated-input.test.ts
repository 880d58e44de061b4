import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { getDb } from '../db/client';
import { signInThrottle, upstreamCallbacks } from '../db/schema';
import { recordUpstreamCallback } from '../channels/upstream-callbacks';
import { runJobExclusively } from '../jobs/periodic-job';
import { pruneJob } from './prune-unauthenticated-input';

const DAY = 24 * 60 * 60_000;

async function verdictsLeft(): Promise<string[]> {
  return (await getDb().select({ verdict: upstreamCallbacks.verdict }).from(upstreamCallbacks).orderBy(upstreamCallbacks.id)).map((row) => row.verdict);
}

describe('pruning what anonymous traffic leaves behind', () => {
  it('deletes refused callbacks past the retention and stale throttle rows, keeps the rest', async () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const old = new Date(now.getTime() - 31 * DAY);
    const recent = new Date(now.getTime() - 29 * DAY);
    await recordUpstreamCallback(getDb(), { channel: 'YHT', receivedAt: old, verdict: 'bad_signature', rawBody: 'x' });
    await recordUpstreamCallback(getDb(), { channel: 'YHT', receivedAt: old, verdict: 'malformed' });
    await recordUpstreamCallback(getDb(), { channel: 'YHT', receivedAt: recent, verdict: 'unknown_order' });
    await recordUpstreamCallback(getDb(), { channel: 'YHT', receivedAt: old, verdict: 'amount_mismatch' });
    await getDb()
      .insert(signInThrottle)
      .values([
        { key: 'ip:stale', failures: 3, windowStartedAt: new Date(now.getTime() - 2 * DAY), updatedAt: now },
        { key: 'ip:fresh', failures: 3, windowStartedAt: new Date(now.getTime() - 60_000), updatedAt: now },
      ]);

    expect(await runJobExclusively(pruneJob, { db: getDb(), clock: new ManualClock(now), log: () => undefined })).toBe(true);

    expect(await verdictsLeft()).toEqual(['unknown_order', 'amount_mismatch']);
    const keys = await getDb().select({ key: signInThrottle.key }).from(signInThrottle).where(sql`${signInThrottle.key} LIKE 'ip:%'`);
    expect(keys.map((row) => row.key)).toEqual(['ip:fresh']);
  });
});
