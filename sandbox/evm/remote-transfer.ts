import { createPublicClient, createWalletClient, defineChain, http, isAddress, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SANDBOX_EVM_CHAINS, SANDBOX_PAYER_KEY, SANDBOX_TOKEN_ADDRESS, parseTokenAmount, type SandboxEvmChainName } from './sandbox-evm-chains';
import { readTokenArtifact } from './token-artifact';

/** The transfer cannot be sent as asked (bad address or amount, node unreachable or not a sandbox node). */
export class SandboxEvmTransferRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxEvmTransferRefused';
  }
}

/**
 * The running sandbox node of a chain: the first of EVM_<CHAIN>_RPC_URLS, else the node `npm run dev` starts (on its
 * default port, or from SANDBOX_EVM_BASE_PORT in the chains' order, as dev-sandbox-evm.ts places them).
 */
export function sandboxRpcUrl(chain: SandboxEvmChainName, env: NodeJS.ProcessEnv = process.env): string {
  const listed = env[`EVM_${chain}_RPC_URLS`]?.split(',').map((entry) => entry.trim()).find((entry) => entry !== '');
  if (listed) return listed;
  const base = env.SANDBOX_EVM_BASE_PORT;
  const port = base ? Number(base) + Object.keys(SANDBOX_EVM_CHAINS).indexOf(chain) : SANDBOX_EVM_CHAINS[chain].defaultPort;
  return `http://127.0.0.1:${port}`;
}

/** The payer's wallet on a running sandbox node, once the node is known to be the chain's sandbox (its chain id). */
export async function connectSandboxNode(chainName: SandboxEvmChainName, rpcUrl: string) {
  const spec = SANDBOX_EVM_CHAINS[chainName];
  const chain = defineChain({ id: spec.chainId, name: spec.label, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const transport = http(rpcUrl, { retryCount: 0, timeout: 10_000 });
  const reader = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ account: privateKeyToAccount(SANDBOX_PAYER_KEY), chain, transport });
  let chainId: number;
  try {
    chainId = await reader.getChainId();
  } catch (error) {
    throw new SandboxEvmTransferRefused(`no sandbox ${chainName} node answers at ${rpcUrl} (${(error as Error).message.split('\n')[0]})`);
  }
  if (chainId !== spec.chainId) throw new SandboxEvmTransferRefused(`${rpcUrl} is chain ${chainId}, not the sandbox ${chainName} chain (${spec.chainId})`);
  const { abi } = readTokenArtifact();
  /** Calls the sandbox token as the payer and waits for its block (at most `timeoutMs`). */
  async function send(functionName: 'transfer' | 'transferMany', args: readonly unknown[], timeoutMs = 20_000): Promise<{ hash: Hash; blockNumber: bigint }> {
    const hash: Hash = await wallet.writeContract({ address: SANDBOX_TOKEN_ADDRESS, abi, functionName, args });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: timeoutMs });
    if (receipt.status !== 'success') throw new SandboxEvmTransferRefused(`the ${functionName} reverted (${hash})`);
    return { hash, blockNumber: receipt.blockNumber };
  }
  return { spec, payer: wallet.account.address, send };
}

/** The payer sends sandbox USDT on a running sandbox node over JSON-RPC, as a wallet would; returns once mined. */
export async function sendSandboxEvmTransfer(input: { chain: SandboxEvmChainName; to: string; amount: string; rpcUrl: string }) {
  const spec = SANDBOX_EVM_CHAINS[input.chain];
  if (!isAddress(input.to, { strict: true })) throw new SandboxEvmTransferRefused(`to: not an EVM address with a valid EIP-55 checksum (got ${input.to})`);
  let raw: bigint;
  try {
    raw = parseTokenAmount(input.amount, spec.decimals);
  } catch (error) {
    throw new SandboxEvmTransferRefused(`amount: ${(error as Error).message}`);
  }
  const node = await connectSandboxNode(input.chain, input.rpcUrl);
  const { hash, blockNumber } = await node.send('transfer', [input.to as Address, raw]);
  return { transactionHash: hash, blockNumber, from: node.payer, to: input.to, raw, token: SANDBOX_TOKEN_ADDRESS };
}
