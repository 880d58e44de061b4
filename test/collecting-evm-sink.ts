import type { Database } from '../lib/db/client';
import type { EvmChainName } from '../lib/channels/usdt/evm/evm-chains';
import type { EvmReorg, EvmTransfer, EvmTransferSink } from '../lib/channels/usdt/evm/watch-evm-chain';

/**
 * A sink over an in-memory set of receiving addresses per chain that keeps what it is handed: for tests and the
 * bench, where the watcher's own behaviour is under test; phase 2's sink records transfers and pays orders.
 */
export class CollectingEvmSink implements EvmTransferSink {
  readonly transfers: EvmTransfer[] = [];
  readonly reorgs: EvmReorg[] = [];
  private readonly addresses = new Map<EvmChainName, Set<string>>();

  receive(chain: EvmChainName, ...addresses: string[]): this {
    const set = this.addresses.get(chain) ?? new Set<string>();
    for (const address of addresses) set.add(address.toLowerCase());
    this.addresses.set(chain, set);
    return this;
  }

  async receivingAmong(chain: EvmChainName, candidates: readonly string[], _db: Database): Promise<ReadonlySet<string>> {
    const set = this.addresses.get(chain);
    return new Set(set ? candidates.filter((candidate) => set.has(candidate.toLowerCase())) : []);
  }

  async onFinalTransfers(_chain: EvmChainName, transfers: readonly EvmTransfer[]): Promise<void> {
    this.transfers.push(...transfers);
  }

  async onReorg(reorg: EvmReorg): Promise<void> {
    this.reorgs.push(reorg);
  }
}
