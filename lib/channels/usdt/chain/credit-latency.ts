import { metrics } from '../../../observability/metrics';
import type { RecordedTransfer } from './record-transfers';

/**
 * Final → credited, per network: how long an order waited between its block becoming final and the watcher paying it.
 * A watcher learns a block is final when a request lists it; it became final after the previous answered request of
 * that chain and before this one (`window`), so the estimate is the middle of that window (never before the block).
 */
export function observeFinalToCredited(network: string, recorded: readonly RecordedTransfer[], window: { from: number; to: number }, creditedAtMs: number): void {
  const { finalToCredited } = metrics();
  for (const entry of recorded) {
    if (entry.verdict !== 'matched') continue;
    const finalAt = Math.max(entry.transfer.blockTime.getTime(), (window.from + window.to) / 2);
    finalToCredited.observe({ network }, Math.max(0, (creditedAtMs - finalAt) / 1000));
  }
}
