import { publicBaseUrl } from '../orders/identifiers';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';

export const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** TRC20 USDT has 6 decimals; order amounts are cents: 1 cent = 10^4 raw units. */
export const RAW_UNITS_PER_CENT = 10_000n;

export interface ChainConfig {
  baseUrl: string;
  apiKey?: string;
  contract: string;
  pollMs: number;
  /** Where the watcher starts on a database that has no cursor yet. */
  initialLookbackMs: number;
}

/**
 * TronGrid by default; the built-in sandbox chain when the sandbox is on and no TRONGRID_BASE_URL is given, outside
 * production only: in production the sandbox ledger is read only when TRONGRID_BASE_URL names it.
 */
export function chainConfig(): ChainConfig {
  const sandboxByDefault = sandboxEnabled() && process.env.NODE_ENV !== 'production';
  const baseUrl = process.env.TRONGRID_BASE_URL || (sandboxByDefault ? `${publicBaseUrl()}/sandbox/tron` : 'https://api.trongrid.io');
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: process.env.TRONGRID_API_KEY || undefined,
    contract: process.env.USDT_CONTRACT || USDT_TRC20_CONTRACT,
    pollMs: Number(process.env.CHAIN_POLL_MS ?? 3000),
    initialLookbackMs: Number(process.env.CHAIN_INITIAL_LOOKBACK_MS ?? 60 * 60 * 1000),
  };
}
