import type { ReconciliationScope, ReconciliationSource } from '../../reconciliation/bill-source';
import { matchChainTransfers, type TransferChain } from './chain/match-transfers';
import { tronConfigured, tronTransfers } from './chain/reconcile-tron';
import { EVM_CHAINS, isEvmChainName } from './evm/evm-chains';
import { enabledEvmChains } from './evm/evm-config';

const TRON: TransferChain = { name: 'TRC20', windowSlackMs: 0 };

/** One scope per chain, keyed 'chain:<name>'; its orders are those of the chain's chainType (orders.chain_type). */
function chainScope(name: string, chainType: string): ReconciliationScope {
  return { key: `chain:${name}`, credentialId: null, credentialIds: [], chain: chainType };
}

const chainOf = (scope: ReconciliationScope): string => scope.key.slice('chain:'.length);

/**
 * USDT's reconciliation: each chain's transfers to our receiving addresses read again from the chain, TRON when
 * TronGrid is configured and each EVM chain of USDT_EVM_CHAINS, all matched by one matcher keyed by chain. The EVM
 * reader (viem) is loaded only when a chain is read: every process that reads the channel registry would wait for it.
 */
export const usdtReconciliation: ReconciliationSource = {
  async scopes() {
    const evm = enabledEvmChains().map((name) => chainScope(name, EVM_CHAINS[name].chainType));
    return tronConfigured() ? [chainScope(TRON.name, '1'), ...evm] : evm;
  },
  async *rows(db, scope, day, signal) {
    const chain = chainOf(scope);
    if (!isEvmChainName(chain)) {
      yield* tronTransfers(db, day, signal);
      return;
    }
    const { evmTransfers } = await import('./evm/reconcile-evm');
    yield* evmTransfers(db, chain, day, signal);
  },
  match(db, input, scope) {
    const chain = chainOf(scope);
    return matchChainTransfers(db, input, isEvmChainName(chain) ? { name: chain, windowSlackMs: 999 } : TRON);
  },
  // TRON's endpoints (chain/chain-config.ts; TRONGRID_BASE_URL names one): the sandbox ledger when neither is set.
  sandboxDefault: { setting: 'TRONGRID_BASE_URLS', aliases: ['TRONGRID_BASE_URL'] },
};
