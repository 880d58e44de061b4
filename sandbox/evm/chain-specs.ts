/**
 * The sandbox's own description of the three EVM networks USDT runs on, from Tether's and the chains' documentation:
 * 6 decimals on Ethereum and Polygon PoS, 18 on BNB Smart Chain. Local chain ids stand in for 1 / 56 / 137 so that a
 * wallet or a misrouted request can never mistake a sandbox node for a real network. `mainnetBlockMs` is how often the
 * real network makes a block, for traffic at mainnet pace (traffic.ts): Ethereum's 12 s slots, BNB Smart Chain's
 * 0.75 s since its Maxwell upgrade (2025), Polygon PoS's 2 s.
 */
export const SANDBOX_EVM_CHAINS = {
  ERC20: { label: 'Ethereum (sandbox)', chainId: 31_001, decimals: 6, defaultPort: 8545, mainnetBlockMs: 12_000 },
  BEP20: { label: 'BNB Smart Chain (sandbox)', chainId: 31_056, decimals: 18, defaultPort: 8546, mainnetBlockMs: 750 },
  POLYGON: { label: 'Polygon PoS (sandbox)', chainId: 31_137, decimals: 6, defaultPort: 8547, mainnetBlockMs: 2_000 },
} as const;

export type SandboxEvmChainName = keyof typeof SANDBOX_EVM_CHAINS;

export function isSandboxEvmChainName(value: string): value is SandboxEvmChainName {
  return Object.hasOwn(SANDBOX_EVM_CHAINS, value);
}
