import type { RequestBudget } from '../chain/request-budget';
import type { EvmChainName } from './evm-chains';
import type { EvmChainSettings } from './evm-config';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How often each mainnet makes a block and moves its final block: Ethereum 12 s slots, `finalized` once an epoch
 * (32 slots, 6.4 min); BSC 0.75 s blocks (since the Maxwell upgrade), final by depth, so every block; Polygon PoS 2 s
 * blocks, `finalized` by milestone, counted here as every block (the most requests).
 */
export const MAINNET_TIMING: Record<EvmChainName, { blockMs: number; finalStepMs: number }> = {
  ERC20: { blockMs: 12_000, finalStepMs: 384_000 },
  BEP20: { blockMs: 750, finalStepMs: 750 },
  POLYGON: { blockMs: 2000, finalStepMs: 2000 },
};

/**
 * One EVM chain's requests a day (watch-evm-chain.ts): each poll asks for the final block (1); a poll that finds
 * new final blocks reads them in ranges of EVM_<CHAIN>_LOG_RANGE blocks, 3 requests a range (first block, one
 * eth_getLogs for every receiving address at once, last block), plus one block read per block holding a payment.
 *   polls = ⌈86,400,000 / EVM_<CHAIN>_POLL_MS⌉, active = min(1, POLL_MS / final step), ranges = ⌈new final blocks a poll / LOG_RANGE⌉
 *   R = polls × (1 + active × 3 × ranges) + payments a day
 */
export function evmRequestBudget(chain: Pick<EvmChainSettings, 'pollMs' | 'logRange' | 'dailyQuota'> & { definition: { name: EvmChainName } }, paymentsPerDay = 0): RequestBudget {
  const name = chain.definition.name;
  const timing = MAINNET_TIMING[name];
  const polls = Math.ceil(DAY_MS / chain.pollMs);
  const active = Math.min(1, chain.pollMs / timing.finalStepMs);
  const blocksPerActivePoll = Math.max(chain.pollMs, timing.finalStepMs) / timing.blockMs;
  const ranges = Math.ceil(blocksPerActivePoll / chain.logRange);
  const perDay = Math.ceil(polls * (1 + active * 3 * ranges)) + paymentsPerDay;
  return {
    network: name,
    perDay,
    worstPerDay: perDay,
    quota: chain.dailyQuota,
    quotaSetting: `EVM_${name}_DAILY_QUOTA`,
    formula: `${polls.toLocaleString('en')} polls × (1 + ${active.toFixed(3)} × 3 × ${ranges})`,
  };
}
