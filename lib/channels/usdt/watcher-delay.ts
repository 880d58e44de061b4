import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jobRuns } from '../../db/schema';
import { chainWatcherMaxLagMs } from '../../jobs/job-staleness';
import { trc20WatcherHealth } from './chain/watcher-health';
import { evmChainCursors } from './evm/schema';

/** The job that reads each chain (lib/channels/usdt/chain/chain-jobs.ts, evm/evm-watcher-job.ts). */
const WATCHER_JOB: Record<string, string> = { TRC20: 'usdt-chain-watcher', ERC20: 'usdt-evm-watcher', BEP20: 'usdt-evm-watcher', POLYGON: 'usdt-evm-watcher' };

/**
 * Whether the service knows that the watcher crediting payments on `chainName` is behind at `now`: its job has not
 * succeeded for longer than CHAIN_WATCHER_MAX_LAG_SECONDS (it fails, hangs or no process runs it), the TRC20 cursor
 * lags the chain by more than that (as the health page judges it), or an EVM chain is held after a re-org. A transfer
 * made inside the order's window is then credited late, so the payer must hear "delayed", never "expired". A
 * watcher that has never run is not judged (a service that has just started).
 */
export async function isChainWatcherBehind(db: Database, chainName: string, now: Date): Promise<boolean> {
  const maxLagMs = chainWatcherMaxLagMs();
  const olderThanLag = (at: Date) => now.getTime() - at.getTime() > maxLagMs;
  const jobName = WATCHER_JOB[chainName];
  if (!jobName) return false;
  const [run] = await db.select({ lastSuccessAt: jobRuns.lastSuccessAt, failureCount: jobRuns.failureCount }).from(jobRuns).where(eq(jobRuns.name, jobName)).limit(1);
  if (run && (run.lastSuccessAt ? olderThanLag(run.lastSuccessAt) : run.failureCount > 0)) return true;
  if (chainName === 'TRC20') {
    const cursor = await trc20WatcherHealth.cursor(db);
    if (!cursor) return false;
    // Read through a quiet stretch of the chain is not behind: only what the watcher has not read yet counts.
    const readAt = cursor.readThrough && cursor.readThrough > cursor.blockTime ? cursor.readThrough : cursor.blockTime;
    return olderThanLag(readAt);
  }
  const [cursor] = await db.select({ reorgDetectedAt: evmChainCursors.reorgDetectedAt }).from(evmChainCursors).where(eq(evmChainCursors.chain, chainName)).limit(1);
  return cursor?.reorgDetectedAt != null;
}
