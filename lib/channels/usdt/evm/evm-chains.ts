import type { Address } from 'viem';

export type EvmChainName = 'ERC20' | 'BEP20' | 'POLYGON';

/** When a block counts as final: the node's `finalized` tag, or a fixed depth below the head (BSC's default 15). */
export type Finality = { kind: 'finalized-tag' } | { kind: 'depth'; blocks: number };

export interface EvmChainDefinition {
  name: EvmChainName;
  /** The open API's chainType; '1' is TRC20. */
  chainType: '2' | '3' | '4';
  network: string;
  mainnetChainId: number;
  /** Tether's USDT on the network (EIP-55), as Tether and the chain's explorer list it. */
  mainnetToken: Address;
  decimals: number;
  defaultFinality: Finality;
}

/**
 * USDT on EVM chains: 6 decimals on Ethereum and Polygon PoS, 18 on BNB Smart Chain (there the token is Binance's
 * bridged "BSC-USD", which wallets and exchanges list as USDT BEP20). Ethereum serves the `finalized` tag since the
 * Merge; Polygon PoS since its milestones (PIP-11) give deterministic finality. BSC's fast finality (BEP-126) also
 * answers `finalized`, but the depth rule is kept as the issue asks (EVM_BEP20_FINALITY, 15 blocks by default).
 */
export const EVM_CHAINS: Readonly<Record<EvmChainName, EvmChainDefinition>> = {
  ERC20: {
    name: 'ERC20',
    chainType: '2',
    network: 'Ethereum',
    mainnetChainId: 1,
    mainnetToken: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    decimals: 6,
    defaultFinality: { kind: 'finalized-tag' },
  },
  BEP20: {
    name: 'BEP20',
    chainType: '3',
    network: 'BNB Smart Chain',
    mainnetChainId: 56,
    mainnetToken: '0x55d398326f99059fF775485246999027B3197955',
    decimals: 18,
    defaultFinality: { kind: 'depth', blocks: 15 },
  },
  POLYGON: {
    name: 'POLYGON',
    chainType: '4',
    network: 'Polygon PoS',
    mainnetChainId: 137,
    mainnetToken: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    decimals: 6,
    defaultFinality: { kind: 'finalized-tag' },
  },
};

export const EVM_CHAIN_NAMES = Object.keys(EVM_CHAINS) as EvmChainName[];

export function isEvmChainName(value: string): value is EvmChainName {
  return Object.hasOwn(EVM_CHAINS, value);
}

export function evmChainByChainType(chainType: string): EvmChainDefinition | undefined {
  return Object.values(EVM_CHAINS).find((chain) => chain.chainType === chainType);
}
