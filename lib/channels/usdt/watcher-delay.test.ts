import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { jobRuns } from '../../db/schema';
import { evmChainCursors } from './evm/schema';
import { isChainWatcherBehind } from './watcher-delay';

const now = new Date('2026-11-26T10:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

async function lastRun(name: string, lastSuccessAt: Date | null, failureCount = 0) {
  await getDb()
    .insert(jobRuns)
    .values({ name, lastStartedAt: now, lastFinishedAt: now, lastDurationMs: 5, lastOutcome: lastSuccessAt ? 'ok' : 'failed', lastSuccessAt, runCount: 1, failureCount })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastSuccessAt, failureCount } });
}

beforeEach(async () => {
  await getDb().delete(jobRuns);
  await getDb().delete(evmChainCursors);
});

describe('whether a chain watcher is known to be behind (CHAIN_WATCHER_MAX_LAG_SECONDS, 300 by default)', () => {
  it('is not judged before the watcher has ever run', async () => {
    expect(await isChainWatcherBehind(getDb(), 'TRC20', now)).toBe(false);
    expect(await isChainWatcherBehind(getDb(), 'BEP20', now)).toBe(false);
  });

  it('is behind when its job has not succeeded for longer than the lag allowed, or has only failed', async () => {
    await lastRun('usdt-evm-watcher', minutesAgo(1));
    expect(await isChainWatcherBehind(getDb(), 'BEP20', now)).toBe(false);
    await lastRun('usdt-evm-watcher', minutesAgo(6));
    expect(await isChainWatcherBehind(getDb(), 'BEP20', now)).toBe(true);
    expect(await isChainWatcherBehind(getDb(), 'ERC20', now)).toBe(true);
    // The TRON watcher is another job.
    expect(await isChainWatcherBehind(getDb(), 'TRC20', now)).toBe(false);
    await lastRun('usdt-chain-watcher', null, 3);
    expect(await isChainWatcherBehind(getDb(), 'TRC20', now)).toBe(true);
  });

  it('is behind on an EVM chain held after a re-org, and on that chain only', async () => {
    await lastRun('usdt-evm-watcher', minutesAgo(0));
    await getDb().insert(evmChainCursors).values([
      { chain: 'BEP20', blockNumber: 10n, blockHash: '0xaa', reorgDetectedAt: minutesAgo(1) },
      { chain: 'POLYGON', blockNumber: 10n, blockHash: '0xbb' },
    ]);
    expect(await isChainWatcherBehind(getDb(), 'BEP20', now)).toBe(true);
    expect(await isChainWatcherBehind(getDb(), 'POLYGON', now)).toBe(false);
  });
});
