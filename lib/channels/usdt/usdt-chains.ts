import { EVM_CHAINS } from './evm/evm-chains';
import { enabledEvmChains } from './evm/evm-config';

/** A USDT network the service knows: the open API's chainType, the pool's chain name, and how payers call it. */
export interface UsdtChain {
  chainType: string;
  /** receiving_addresses.chain and chain_transfers.chain. */
  name: string;
  network: string;
  /** The token standard wallets show next to USDT. */
  standard: string;
  decimals: number;
}

const TRON: UsdtChain = { chainType: '1', name: 'TRC20', network: 'TRON', standard: 'TRC20', decimals: 6 };

/** Every USDT chain, TRC20 first (the contract's original chainType '1'), then the EVM chains by chainType. */
export const USDT_CHAINS: readonly UsdtChain[] = [
  TRON,
  ...Object.values(EVM_CHAINS).map((chain) => ({ chainType: chain.chainType, name: chain.name, network: chain.network, standard: chain.name === 'POLYGON' ? 'Polygon' : chain.name, decimals: chain.decimals })),
];

export const DEFAULT_CHAIN_TYPE = TRON.chainType;

export function usdtChainByType(chainType: string): UsdtChain | undefined {
  return USDT_CHAINS.find((chain) => chain.chainType === chainType);
}

export function usdtChainNamed(name: string): UsdtChain | undefined {
  return USDT_CHAINS.find((chain) => chain.name === name);
}

/** TRC20 always; an EVM chain when USDT_EVM_CHAINS enables it (and the watcher therefore reads it). */
export function isUsdtChainEnabled(chain: UsdtChain, env: NodeJS.ProcessEnv = process.env): boolean {
  return chain === TRON || enabledEvmChains(env).includes(chain.name as never);
}

/** "1 (TRC20), 2 (ERC20), …" for error messages and documents. */
export function describeChainTypes(): string {
  return USDT_CHAINS.map((chain) => `${chain.chainType} (${chain.name})`).join(', ');
}
