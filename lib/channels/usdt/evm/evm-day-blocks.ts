import { BillUnavailable } from '../../../reconciliation/bill-source';
import type { EvmChainSettings } from './evm-config';
import type { EvmRpcPool } from './evm-rpc-pool';
import { finalBlockNumber } from './watch-evm-chain';

/**
 * The blocks of a day on an EVM chain: from the first block stamped at or after `start` to the last one stamped before
 * `end`, found by binary search on block timestamps (never decreasing along a chain), about 2 × log2(height) calls.
 * Refused (BillUnavailable) until the first block after the day is final by the chain's rule (the watcher's): before,
 * the day's last blocks could still be replaced. undefined when no block was stamped during the day.
 */
export async function dayBlockRange(rpc: EvmRpcPool, settings: EvmChainSettings, day: string, bounds: { start: Date; end: Date }): Promise<{ from: bigint; to: bigint } | undefined> {
  const chain = settings.definition.name;
  const final = await rpc.call((client) => finalBlockNumber(client, settings));
  if (final === null) throw new BillUnavailable(`${chain} has no final block yet`);
  const times = new Map<bigint, number>();
  const timeOf = async (blockNumber: bigint): Promise<number> => {
    let time = times.get(blockNumber);
    if (time === undefined) {
      const block = await rpc.call((client) => client.getBlock({ blockNumber }));
      time = Number(block.timestamp) * 1000;
      times.set(blockNumber, time);
    }
    return time;
  };
  const finalTime = await timeOf(final);
  if (finalTime < bounds.end.getTime()) throw new BillUnavailable(`${chain} is final only up to block ${final} (${new Date(finalTime).toISOString()}), before the end of ${day}`);
  /** The lowest block in [low, final] stamped at or after `at` (final is). */
  const firstAtOrAfter = async (at: number, low: bigint): Promise<bigint> => {
    let high = final;
    while (low < high) {
      const middle = (low + high) / 2n;
      if ((await timeOf(middle)) >= at) high = middle;
      else low = middle + 1n;
    }
    return low;
  };
  const from = await firstAtOrAfter(bounds.start.getTime(), 0n);
  const after = await firstAtOrAfter(bounds.end.getTime(), from);
  return after > from ? { from, to: after - 1n } : undefined;
}
