import { DomainError } from '../../../errors/domain-error';
import { envSetting } from '../../../config/env-setting';
import { publicBaseUrl } from '../../../orders/identifiers';
import { sandboxEnabled } from '../../../sandbox/sandbox-enabled';

export const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** TRC20 USDT has 6 decimals; order amounts are cents: 1 cent = 10^4 raw units. */
export const RAW_UNITS_PER_CENT = 10_000n;
export const TRONGRID_MAINNET = 'https://api.trongrid.io';

export interface ChainConfig {
  /** TronGrid-compatible endpoints in order of preference; the watcher fails over between them. */
  baseUrls: string[];
  apiKey?: string;
  contract: string;
  pollMs: number;
  /** Where the watcher starts on a database that has no cursor yet. */
  initialLookbackMs: number;
  /** How long a failing endpoint rests behind the healthy ones before it is tried again. */
  endpointRetryMs: number;
  /** How the watcher reaches the chain, for the start-up log line (never the key itself). */
  access: 'api-key' | 'self-hosted' | 'sandbox' | 'keyless';
}

/** The chain watcher cannot run as configured; the message names the setting to fix. */
/** A missing or malformed setting: the channel is not available (its message names the setting, for operators). */
export class ChainNotConfigured extends DomainError {
  constructor(reason: string) {
    super('upstream_failure', { message: reason });
    this.name = 'ChainNotConfigured';
  }
}

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = envSetting(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ChainNotConfigured(`${name} must be a whole number of milliseconds (got ${raw})`);
  return value;
}

function isTronGridHost(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'trongrid.io' || host.endsWith('.trongrid.io');
}

function parseBaseUrls(env: NodeJS.ProcessEnv): { urls: string[]; from?: string } {
  const from = envSetting(env, 'TRONGRID_BASE_URLS') !== undefined ? 'TRONGRID_BASE_URLS' : envSetting(env, 'TRONGRID_BASE_URL') !== undefined ? 'TRONGRID_BASE_URL' : undefined;
  if (!from) return { urls: [] };
  const urls = env[from]!.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (urls.length === 0) throw new ChainNotConfigured(`${from} lists no URL`);
  for (const url of urls) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new ChainNotConfigured(`${from} must list http(s) URLs separated by commas (got ${url})`);
  }
  return { urls: [...new Set(urls.map((url) => url.replace(/\/+$/, '')))], from };
}

/** The endpoints the watcher reads, without the production checks: for pages that only show their health. */
export function configuredChainEndpoints(env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    return chainEndpoints(env).urls;
  } catch {
    return [];
  }
}

function chainEndpoints(env: NodeJS.ProcessEnv): { urls: string[]; sandbox: boolean } {
  const { urls } = parseBaseUrls(env);
  const sandboxUrl = `${publicBaseUrl()}/sandbox/tron`;
  if (urls.length > 0) return { urls, sandbox: sandboxEnabled(env) && urls.every((url) => url === sandboxUrl) };
  // In production the sandbox ledger is read only when TRONGRID_BASE_URLS names it, never by default.
  if (sandboxEnabled(env) && env.NODE_ENV !== 'production') return { urls: [sandboxUrl], sandbox: true };
  return { urls: [TRONGRID_MAINNET], sandbox: false };
}

export function chainPollMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(envSetting(env, 'CHAIN_POLL_MS') ?? 3000);
  return Number.isFinite(value) && value > 0 ? value : 3000;
}

/**
 * TRONGRID_BASE_URLS (comma-separated; TRONGRID_BASE_URL names one), TRONGRID_API_KEY, TRONGRID_SELF_HOSTED,
 * USDT_CONTRACT, CHAIN_POLL_MS, CHAIN_INITIAL_LOOKBACK_MS, CHAIN_ENDPOINT_RETRY_MS.
 * Default endpoint: TronGrid, or the built-in sandbox chain when the sandbox is on outside production.
 *
 * In production the watcher does not run keyless: TronGrid throttles requests without TRON-PRO-API-KEY hard (403
 * with a 30 s block), so payments would be seen late or not at all. A node of one's own needs no key; saying so
 * takes TRONGRID_SELF_HOSTED=true and TRONGRID_BASE_URLS naming it (TronGrid itself never counts as self-hosted).
 */
export function chainConfig(env: NodeJS.ProcessEnv = process.env): ChainConfig {
  const { urls, sandbox } = chainEndpoints(env);
  const apiKey = envSetting(env, 'TRONGRID_API_KEY');
  const selfHostedSetting = envSetting(env, 'TRONGRID_SELF_HOSTED');
  if (selfHostedSetting !== undefined && selfHostedSetting !== 'true' && selfHostedSetting !== 'false') {
    throw new ChainNotConfigured(`TRONGRID_SELF_HOSTED must be true or false (got ${selfHostedSetting})`);
  }
  const selfHosted = selfHostedSetting === 'true';
  if (selfHosted && !apiKey) {
    if (sandbox || parseBaseUrls(env).urls.length === 0) {
      throw new ChainNotConfigured('TRONGRID_SELF_HOSTED=true needs TRONGRID_BASE_URLS naming your own node(s)');
    }
    const tronGrid = urls.find(isTronGridHost);
    if (tronGrid) throw new ChainNotConfigured(`TRONGRID_SELF_HOSTED=true, but TRONGRID_BASE_URLS includes TronGrid (${tronGrid}), which needs TRONGRID_API_KEY`);
  }
  if (env.NODE_ENV === 'production' && !apiKey && !selfHosted && !sandbox) {
    throw new ChainNotConfigured(
      'TRONGRID_API_KEY is required in production: TronGrid answers requests without an API key with 403 and a 30 s block, ' +
        'so USDT payments would be missed. Set TRONGRID_API_KEY (sent as TRON-PRO-API-KEY), or TRONGRID_SELF_HOSTED=true ' +
        'with TRONGRID_BASE_URLS naming your own TRON node(s).',
    );
  }
  return {
    baseUrls: urls,
    apiKey,
    contract: envSetting(env, 'USDT_CONTRACT') ?? USDT_TRC20_CONTRACT,
    pollMs: chainPollMs(env),
    initialLookbackMs: milliseconds(env, 'CHAIN_INITIAL_LOOKBACK_MS', 60 * 60 * 1000),
    endpointRetryMs: milliseconds(env, 'CHAIN_ENDPOINT_RETRY_MS', 60 * 1000),
    access: apiKey ? 'api-key' : selfHosted ? 'self-hosted' : sandbox ? 'sandbox' : 'keyless',
  };
}

/** The start-up line: where the watcher reads and how it is allowed to (the key is never printed). */
export function describeChainAccess(config: ChainConfig): string {
  const how = {
    'api-key': 'with TRONGRID_API_KEY',
    'self-hosted': 'without an API key (TRONGRID_SELF_HOSTED=true)',
    sandbox: 'the built-in sandbox chain',
    keyless: 'WITHOUT an API key: TronGrid rate-limits keyless requests hard; set TRONGRID_API_KEY',
  }[config.access];
  return `chain: watching USDT (${config.contract}) via ${config.baseUrls.map(endpointLabel).join(', ')}, ${how}`;
}

/**
 * An endpoint as logs and pages show it: scheme, host and path, without credentials or query, and with long
 * token-like path segments (some providers put a key in the path) masked.
 */
export function endpointLabel(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname
    .split('/')
    .map((segment) => (/^[A-Za-z0-9_-]{24,}$/.test(segment) ? `${segment.slice(0, 4)}…` : segment))
    .join('/');
  return `${url.protocol}//${url.host}${path === '/' ? '' : path}`;
}
