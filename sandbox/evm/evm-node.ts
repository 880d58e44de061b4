import ganache from 'ganache';
import { createPublicClient, createWalletClient, defineChain, http, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SANDBOX_EVM_CHAINS, SANDBOX_PAYER_KEY, SANDBOX_TOKEN_ADDRESS, parseTokenAmount, sandboxSupply, type SandboxEvmChainName } from './sandbox-evm-chains';
import { readTokenArtifact } from './token-artifact';
import { PROVIDER_LOG_LIMITS, serveJsonRpc, type LogLimits } from './log-limits';

export interface SandboxEvmNodeOptions {
  chain: SandboxEvmChainName;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** 0 (default): a block per transaction, and `mine()` on demand; more: a block every so many seconds as well. */
  blockTimeSeconds?: number;
  /** The chain's clock at its first block (default now): a test can mine a past day. */
  startTime?: Date;
}

export interface SentTransfer {
  transactionHash: Hash;
  blockNumber: bigint;
  to: Address;
  raw: bigint;
}

export type SandboxEvmNode = Awaited<ReturnType<typeof startSandboxEvmNode>>;

/**
 * A real Ethereum node (ganache, in this process) speaking JSON-RPC over HTTP, with the sandbox USDT contract deployed
 * by the payer as its first transaction (so at SANDBOX_TOKEN_ADDRESS) and the whole supply on the payer's account.
 * eth_getLogs is refused over a hosted provider's limits (log-limits.ts), as a real endpoint would.
 */
export async function startSandboxEvmNode(options: SandboxEvmNodeOptions) {
  const spec = SANDBOX_EVM_CHAINS[options.chain];
  const host = options.host ?? '127.0.0.1';
  const provider = ganache.provider({
    logging: { quiet: true },
    chain: { chainId: spec.chainId, networkId: spec.chainId, ...(options.startTime ? { time: options.startTime } : {}) },
    wallet: { deterministic: true, totalAccounts: 1 },
    // Room for the bench's blocks of 1,000 token transfers in one transaction.
    miner: { blockTime: options.blockTimeSeconds ?? 0, blockGasLimit: '0x3B9ACA00', callGasLimit: '0x3B9ACA00' },
  });
  async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    return (await provider.request({ method: method as never, params: params as never })) as T;
  }
  let logLimits: LogLimits = PROVIDER_LOG_LIMITS;
  const calls = new Map<string, number>();
  let finalizedStep = 1;
  // Ethereum's `finalized` block moves once an epoch (32 slots): with a step, the tag names the last boundary at or
  // below the head, as a mainnet node answers; ganache alone calls the head final.
  const front = async (method: string, params: unknown[]) => {
    if (method === 'eth_getBlockByNumber' && params[0] === 'finalized' && finalizedStep > 1) {
      const head = BigInt(await rpc<string>('eth_blockNumber'));
      return rpc(method, [`0x${(head - (head % BigInt(finalizedStep))).toString(16)}`, ...params.slice(1)]);
    }
    return rpc(method, params);
  };
  const server = await serveJsonRpc(front, () => logLimits, { port: options.port ?? 0, host }, (method) => calls.set(method, (calls.get(method) ?? 0) + 1));
  const address = server.address() as { port: number };
  const rpcUrl = `http://${host}:${address.port}`;
  const chain = defineChain({ id: spec.chainId, name: spec.label, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const account = privateKeyToAccount(SANDBOX_PAYER_KEY);
  // A block of 1,000 token transfers takes ganache's JavaScript EVM a while to execute.
  const transport = http(rpcUrl, { retryCount: 0, timeout: 300_000 });
  const wallet = createWalletClient({ account, chain, transport });
  const reader = createPublicClient({ chain, transport });
  const { abi, bytecode } = readTokenArtifact();

  const deployment = await wallet.deployContract({ abi, bytecode, args: [spec.decimals, sandboxSupply(spec.decimals)] });
  const deployed = await reader.waitForTransactionReceipt({ hash: deployment, pollingInterval: 50 });
  if (deployed.contractAddress?.toLowerCase() !== SANDBOX_TOKEN_ADDRESS.toLowerCase()) throw new Error(`sandbox token deployed at ${deployed.contractAddress}, expected ${SANDBOX_TOKEN_ADDRESS}`);

  async function send(functionName: 'transfer' | 'transferMany', args: readonly unknown[]): Promise<{ hash: Hash; blockNumber: bigint }> {
    const hash = await wallet.writeContract({ address: SANDBOX_TOKEN_ADDRESS, abi, functionName, args, gas: 900_000_000n });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`sandbox token ${functionName} reverted (${hash})`);
    return { hash, blockNumber: receipt.blockNumber };
  }

  return {
    chain: options.chain,
    chainId: spec.chainId,
    decimals: spec.decimals,
    rpcUrl,
    token: SANDBOX_TOKEN_ADDRESS,
    payer: account.address,
    /** Sends `amount` USDT (a decimal, e.g. "12.34") from the payer; mined at once. */
    async transfer(to: Address, amount: string): Promise<SentTransfer> {
      return this.transferRaw(to, parseTokenAmount(amount, spec.decimals));
    },
    async transferRaw(to: Address, raw: bigint): Promise<SentTransfer> {
      const { hash, blockNumber } = await send('transfer', [to, raw]);
      return { transactionHash: hash, blockNumber, to, raw };
    },
    /** One transaction, one block, a Transfer event per recipient. */
    async transferMany(recipients: readonly Address[], raw: bigint): Promise<{ transactionHash: Hash; blockNumber: bigint }> {
      const { hash, blockNumber } = await send('transferMany', [recipients, raw]);
      return { transactionHash: hash, blockNumber };
    },
    async balanceOf(holder: Address): Promise<bigint> {
      return (await reader.readContract({ address: SANDBOX_TOKEN_ADDRESS, abi, functionName: 'balanceOf', args: [holder] })) as bigint;
    },
    async blockNumber(): Promise<bigint> {
      return reader.getBlockNumber({ cacheTime: 0 });
    },
    /** Empty blocks, e.g. to bury a transfer under a finality depth. */
    async mine(blocks = 1): Promise<void> {
      await rpc('evm_mine', [{ blocks }]);
    },
    /** The chain as it is now, to come back to with revert(): a re-org in miniature. */
    async snapshot(): Promise<string> {
      return rpc<string>('evm_snapshot');
    },
    async revert(snapshotId: string): Promise<void> {
      if (!(await rpc<boolean>('evm_revert', [snapshotId]))) throw new Error(`evm_revert ${snapshotId} refused`);
    },
    /** The chain's clock: the next block is stamped from this instant on. */
    async setTime(at: Date): Promise<void> {
      await rpc('evm_setTime', [at.getTime()]);
    },
    /** The JSON-RPC calls the node has answered since the last reset, by method (as a provider counts them). */
    calls(): ReadonlyMap<string, number> {
      return new Map(calls);
    },
    resetCalls(): void {
      calls.clear();
    },
    /** `finalized` moves in steps of this many blocks (32 on Ethereum); 1, the head, by default. */
    setFinalizedStep(blocks: number): void {
      finalizedStep = blocks;
    },
    /** A provider's eth_getLogs caps (PROVIDER_LOG_LIMITS by default), e.g. lowered to see a reader split its range. */
    limitLogs(limits: LogLimits): void {
      logLimits = limits;
    },
    async close(): Promise<void> {
      server.closeAllConnections(); // the clients' keep-alive sockets would hold close() open
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await provider.disconnect();
    },
  };
}
