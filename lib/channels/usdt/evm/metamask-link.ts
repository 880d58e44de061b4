import { centsToRaw } from './evm-amounts';
import { evmSettings } from './evm-config';
import type { EvmChainName } from './evm-chains';

/**
 * MetaMask's documented deeplink for an ERC-20 transfer (docs.metamask.io, "Use deeplinks › Send an ERC-20 token"):
 * `https://link.metamask.io/send/{token}@{chainId}/transfer?address={recipient}&uint256={raw units}`. The app
 * switches to the chain and fills in the token, the recipient and the exact amount; the payer only confirms. The
 * amount is the token's raw units (10^(decimals − 2) per cent), written out in full: never a float.
 */
export function metaMaskTransferLink(input: { token: string; chainId: number; to: string; cents: bigint; decimals: number }): string {
  const query = new URLSearchParams({ address: input.to, uint256: centsToRaw(input.cents, input.decimals).toString() });
  return `https://link.metamask.io/send/${input.token}@${input.chainId}/transfer?${query}`;
}

/**
 * The MetaMask link of an order on an EVM chain, with the token contract and chain id this service watches (the
 * chain's settings); undefined when the chain is no longer enabled.
 */
export function orderMetaMaskLink(chain: EvmChainName, to: string, cents: bigint, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const settings = evmSettings(env).chains.find((candidate) => candidate.definition.name === chain);
  if (!settings) return undefined;
  return metaMaskTransferLink({ token: settings.token, chainId: settings.chainId, to, cents, decimals: settings.definition.decimals });
}
