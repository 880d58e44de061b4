import { privateKeyToAccount } from 'viem/accounts';
import { getContractAddress, type Address, type Hex } from 'viem';

export { SANDBOX_EVM_CHAINS, isSandboxEvmChainName, type SandboxEvmChainName } from './chain-specs';

/**
 * The payer: the first account of ganache's documented deterministic wallet (mnemonic "myth like bonus scare over
 * problem client lizard pioneer submit female collect"). A well-known test key, never a secret.
 */
export const SANDBOX_PAYER_KEY: Hex = '0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d';
export const SANDBOX_PAYER: Address = privateKeyToAccount(SANDBOX_PAYER_KEY).address;

/** The token is the payer's first transaction on a fresh node, so its address is known without asking the node. */
export const SANDBOX_TOKEN_ADDRESS: Address = getContractAddress({ from: SANDBOX_PAYER, nonce: 0n });

/** The payer's whole supply: a billion USDT in the chain's own units. */
export function sandboxSupply(decimals: number): bigint {
  return 1_000_000_000n * 10n ** BigInt(decimals);
}

/** `--amount 12.34` in the chain's units: a decimal with at most `decimals` digits after the point, nothing rounded. */
export function parseTokenAmount(amount: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match || (match[2]?.length ?? 0) > decimals) throw new RangeError(`amount must be a positive decimal with at most ${decimals} decimals (got ${amount})`);
  const raw = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt((match[2] ?? '').padEnd(decimals, '0') || '0');
  if (raw === 0n) throw new RangeError('amount must be more than 0');
  return raw;
}
