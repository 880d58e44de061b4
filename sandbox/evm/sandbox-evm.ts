import type { Address } from 'viem';
import { startSandboxEvmNode, type SandboxEvmNode, type SentTransfer } from './evm-node';
import { SANDBOX_EVM_CHAINS, type SandboxEvmChainName } from './sandbox-evm-chains';

export interface SandboxEvmOptions {
  /** Where each node listens; a chain left out gets its default port (8545 / 8546 / 8547), 0 a free one. */
  ports?: Partial<Record<SandboxEvmChainName, number>>;
  host?: string;
  blockTimeSeconds?: number;
  chains?: readonly SandboxEvmChainName[];
}

/** One sandbox node per EVM chain, each with the sandbox USDT deployed and the payer funded: `npm run dev`'s EVM side. */
export async function startSandboxEvm(options: SandboxEvmOptions = {}) {
  const names = options.chains ?? (Object.keys(SANDBOX_EVM_CHAINS) as SandboxEvmChainName[]);
  const nodes = new Map<SandboxEvmChainName, SandboxEvmNode>();
  try {
    for (const chain of names) {
      nodes.set(chain, await startSandboxEvmNode({ chain, host: options.host, port: options.ports?.[chain] ?? SANDBOX_EVM_CHAINS[chain].defaultPort, blockTimeSeconds: options.blockTimeSeconds }));
    }
  } catch (error) {
    await Promise.all([...nodes.values()].map((node) => node.close()));
    throw error;
  }
  function node(chain: SandboxEvmChainName): SandboxEvmNode {
    const found = nodes.get(chain);
    if (!found) throw new Error(`no sandbox node for ${chain}`);
    return found;
  }
  return {
    node,
    /**
     * The service's settings for watching these nodes (what `npm run dev` puts in the environment when it starts
     * them): USDT_EVM_CHAINS and, per chain, EVM_<CHAIN>_RPC_URLS, EVM_<CHAIN>_CHAIN_ID and EVM_<CHAIN>_TOKEN_CONTRACT.
     */
    serviceSettings(): Record<string, string> {
      const settings: Record<string, string> = { USDT_EVM_CHAINS: [...nodes.keys()].join(',') };
      for (const [chain, running] of nodes) {
        settings[`EVM_${chain}_RPC_URLS`] = running.rpcUrl;
        settings[`EVM_${chain}_CHAIN_ID`] = String(running.chainId);
        settings[`EVM_${chain}_TOKEN_CONTRACT`] = running.token;
      }
      return settings;
    },
    transfer(chain: SandboxEvmChainName, to: Address, amount: string): Promise<SentTransfer> {
      return node(chain).transfer(to, amount);
    },
    async close(): Promise<void> {
      await Promise.all([...nodes.values()].map((running) => running.close()));
    },
  };
}
