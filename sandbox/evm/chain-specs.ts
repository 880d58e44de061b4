/**
 * The sandbox's own description of the three EVM networks USDT runs on, from Tether's and the chains' documentation:
 * 6 decimals on Ethereum and Polygon PoS, 18 on BNB Smart Chain. Local chain ids stand in for 1 / 56 / 137 so that a
 * wallet or a misrouted request can never mistake a sandbox node for a real network.
 */
export const SANDBOX_EVM_CHAINS = {
  ERC20: { label: 'Ethereum (sandbox)', chainId: 31_001, decimals: 6, defaultPort: 8545 },
  BEP20: { label: 'BNB Smart Chain (sandbox)', chainId: 31_056, decimals: 18, defaultPort: 8546 },
  POLYGON: { label: 'Polygon PoS (sandbox)', chainId: 31_137, decimals: 6, defaultPort: 8547 },
} as const;

export type SandboxEvmChainName = keyof typeof SANDBOX_EVM_CHAINS;

export function isSandboxEvmChainName(value: string): value is SandboxEvmChainName {
  return Object.hasOwn(SANDBOX_EVM_CHAINS, value);
}
