import type { Address } from 'viem';
import { envSetting } from '../../../config/env-setting';
import { StartupRefusal } from '../../../config/startup-refusal';
import { parseEvmAddress, InvalidEvmAddress } from './evm-address';
import { EVM_CHAINS, isEvmChainName, type EvmChainDefinition, type EvmChainName, type Finality } from './evm-chains';

export interface EvmChainSettings {
  definition: EvmChainDefinition;
  /** JSON-RPC endpoints in order of preference; the watcher fails over between them. */
  rpcUrls: string[];
  /** The chain id the endpoints must answer (a BSC URL under EVM_ERC20_RPC_URLS is refused, not read). */
  chainId: number;
  token: Address;
  finality: Finality;
  /** Blocks per eth_getLogs request; providers cap the range or the number of results, so this is per chain. */
  logRange: number;
  /** Where a chain without a cursor starts: this many blocks below the final head (0: only transfers from now on). */
  initialLookbackBlocks: number;
  /** How often this chain is read (EVM_<CHAIN>_POLL_MS): sized so a chain's requests a day fit a free provider plan. */
  pollMs: number;
  /** EVM_<CHAIN>_DAILY_QUOTA: the provider's requests a day for this chain, when the operator names it (checked at start). */
  dailyQuota?: number;
}

export interface EvmSettings {
  chains: EvmChainSettings[];
  /** The job's tick: the shortest of the chains' poll intervals (each chain is read when its own interval is due). */
  pollMs: number;
  /** The first rest of a rate-limited endpoint; it doubles while the endpoint keeps refusing. */
  rateLimitBackoffMs: number;
}

const DEFAULT_LOG_RANGE: Record<EvmChainName, number> = { ERC20: 100, BEP20: 200, POLYGON: 200 };
/**
 * Each chain's default poll (docs/channels/usdt.md, "Request budget"): Ethereum's finalized block moves once an epoch
 * (6.4 min), so a 5 s poll is mostly one cheap request; BSC (0.75 s blocks) and Polygon (2 s) have a new final block
 * every poll, four requests, so 15 s keeps each within Infura's free 3M credits a day and Alchemy's free 30M CU a month.
 */
const DEFAULT_POLL_MS: Record<EvmChainName, number> = { ERC20: 5000, BEP20: 15_000, POLYGON: 15_000 };

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum = 0): number {
  const raw = envSetting(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < minimum || !Number.isSafeInteger(Number(raw))) throw new StartupRefusal(name, `must be a whole number of at least ${minimum} (got ${raw})`);
  return Number(raw);
}

function rpcUrls(env: NodeJS.ProcessEnv, chain: EvmChainName): string[] {
  const name = `EVM_${chain}_RPC_URLS`;
  const raw = envSetting(env, name);
  if (raw === undefined) throw new StartupRefusal(name, `USDT_EVM_CHAINS enables ${chain}, so list its JSON-RPC endpoint(s) here, separated by commas`);
  const urls = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const url of urls) {
    let protocol: string | undefined;
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new StartupRefusal(name, `must list http(s) URLs separated by commas (got ${url})`);
  }
  if (urls.length === 0) throw new StartupRefusal(name, 'lists no URL');
  return [...new Set(urls)];
}

function finality(env: NodeJS.ProcessEnv, definition: EvmChainDefinition): Finality {
  const name = `EVM_${definition.name}_FINALITY`;
  const raw = envSetting(env, name);
  if (raw === undefined) return definition.defaultFinality;
  if (raw === 'finalized') return { kind: 'finalized-tag' };
  if (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 10_000) return { kind: 'depth', blocks: Number(raw) };
  throw new StartupRefusal(name, `must be "finalized" (the node's finalized block tag) or a depth in blocks from 1 to 10000 (got ${raw})`);
}

function token(env: NodeJS.ProcessEnv, definition: EvmChainDefinition): Address {
  const name = `EVM_${definition.name}_TOKEN_CONTRACT`;
  const raw = envSetting(env, name);
  if (raw === undefined) return definition.mainnetToken;
  try {
    return parseEvmAddress(name, raw);
  } catch (error) {
    if (error instanceof InvalidEvmAddress) throw new StartupRefusal(name, `not an EVM address with a valid EIP-55 checksum (got ${raw})`);
    throw error;
  }
}

/** USDT_EVM_CHAINS: the EVM chains the service takes USDT on, e.g. `ERC20,BEP20`; none when unset. */
export function enabledEvmChains(env: NodeJS.ProcessEnv = process.env): EvmChainName[] {
  const raw = envSetting(env, 'USDT_EVM_CHAINS');
  if (raw === undefined) return [];
  const names = raw.split(',').map((entry) => entry.trim().toUpperCase()).filter((entry) => entry !== '');
  for (const name of names) {
    if (!isEvmChainName(name)) throw new StartupRefusal('USDT_EVM_CHAINS', `unknown chain ${name}: list ERC20, BEP20 and/or POLYGON`);
  }
  return [...new Set(names)] as EvmChainName[];
}

/**
 * Per enabled chain: EVM_<CHAIN>_RPC_URLS (required: there is no public default worth trusting with payments),
 * EVM_<CHAIN>_CHAIN_ID (default the mainnet's), EVM_<CHAIN>_TOKEN_CONTRACT (default Tether's mainnet USDT),
 * EVM_<CHAIN>_FINALITY ("finalized" or a depth; BEP20 15 by default), EVM_<CHAIN>_LOG_RANGE, EVM_<CHAIN>_START_LOOKBACK_BLOCKS.
 * EVM_<CHAIN>_POLL_MS (default 5 s on Ethereum, 15 s on BSC and Polygon; EVM_POLL_MS sets every chain's),
 * EVM_<CHAIN>_DAILY_QUOTA (the provider's requests a day, checked at start). Shared: EVM_RATE_LIMIT_BACKOFF_MS (default 5000). A missing or malformed setting
 * throws StartupRefusal naming it, in every mode: an enabled chain nobody watches would take payments it never sees.
 */
export function evmSettings(env: NodeJS.ProcessEnv = process.env): EvmSettings {
  // EVM_POLL_MS, when set, is every chain's poll unless EVM_<CHAIN>_POLL_MS says otherwise.
  const sharedPollMs = envSetting(env, 'EVM_POLL_MS') === undefined ? undefined : wholeNumber(env, 'EVM_POLL_MS', 5000, 100);
  const chains = enabledEvmChains(env).map((name): EvmChainSettings => {
    const definition = EVM_CHAINS[name];
    return {
      definition,
      rpcUrls: rpcUrls(env, name),
      chainId: wholeNumber(env, `EVM_${name}_CHAIN_ID`, definition.mainnetChainId, 1),
      token: token(env, definition),
      finality: finality(env, definition),
      logRange: wholeNumber(env, `EVM_${name}_LOG_RANGE`, DEFAULT_LOG_RANGE[name], 1),
      initialLookbackBlocks: wholeNumber(env, `EVM_${name}_START_LOOKBACK_BLOCKS`, 0),
      pollMs: wholeNumber(env, `EVM_${name}_POLL_MS`, sharedPollMs ?? DEFAULT_POLL_MS[name], 100),
      dailyQuota: envSetting(env, `EVM_${name}_DAILY_QUOTA`) === undefined ? undefined : wholeNumber(env, `EVM_${name}_DAILY_QUOTA`, 0, 1),
    };
  });
  const pollMs = chains.length === 0 ? (sharedPollMs ?? 5000) : Math.min(...chains.map((chain) => chain.pollMs));
  return { chains, pollMs, rateLimitBackoffMs: wholeNumber(env, 'EVM_RATE_LIMIT_BACKOFF_MS', 5000, 1) };
}
