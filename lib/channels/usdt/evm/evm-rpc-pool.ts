import { createPublicClient, http, type PublicClient } from 'viem';
import { measureUpstreamCall } from '../../../observability/metrics';

const MAX_BACKOFF_MS = 5 * 60 * 1000;

/** No endpoint of a chain could answer: every one is resting after a rate limit or just failed. */
export class EvmEndpointsUnavailable extends Error {
  constructor(
    readonly chain: string,
    readonly failures: string[],
  ) {
    super(`${chain}: no JSON-RPC endpoint answered (${failures.join('; ') || 'all are resting after a rate limit'})`);
    this.name = 'EvmEndpointsUnavailable';
  }
}

interface EndpointState {
  url: string;
  client: PublicClient;
  chainChecked: boolean;
  restingUntil: number;
  rateLimits: number;
  lastError?: string;
}

/** 429, or the JSON-RPC "limit exceeded" code -32005 that Infura, BSC and Polygon nodes use for rate limits. */
export function isRateLimit(error: unknown): boolean {
  let found = false;
  walkCauses(error, (cause) => {
    if (cause.status === 429 || cause.code === -32005 || cause.code === 429) found = true;
  });
  return found;
}

function walkCauses(error: unknown, visit: (cause: { status?: unknown; code?: unknown; headers?: unknown }) => void): void {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth += 1) {
    visit(current as { status?: unknown; code?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
}

function retryAfterMs(error: unknown): number | undefined {
  let value: number | undefined;
  walkCauses(error, (cause) => {
    const header = cause.headers instanceof Headers ? cause.headers.get('retry-after') : null;
    if (header && /^\d+$/.test(header)) value = Number(header) * 1000;
  });
  return value;
}

/**
 * An endpoint as logs and errors show it: no credentials, no query, long token-like path segments (Infura, Alchemy
 * and others put the key in the path) cut to their first 4 characters.
 */
export function maskedEndpoint(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname
    .split('/')
    .map((segment) => (/^[A-Za-z0-9_-]{20,}$/.test(segment) ? `${segment.slice(0, 4)}…` : segment))
    .join('/');
  return `${parsed.protocol}//${parsed.host}${path === '/' ? '' : path}`;
}

export function shortError(error: unknown): string {
  const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  return message.split('\n')[0]!.slice(0, 200);
}

/**
 * The JSON-RPC endpoints of one chain, tried in order. A rate-limited endpoint (429 / -32005) rests for its
 * Retry-After or a backoff that doubles while it keeps refusing; a failing one (refused, timeout, 5xx) is skipped
 * for this call and tried again on the next. Each endpoint proves once that it serves the expected chain id.
 */
export class EvmRpcPool {
  private readonly endpoints: EndpointState[];

  constructor(
    readonly chain: string,
    urls: readonly string[],
    private readonly options: { chainId: number; rateLimitBackoffMs: number; timeoutMs?: number; now?: () => number },
  ) {
    this.endpoints = urls.map((url) => ({
      url,
      client: createPublicClient({ transport: http(url, { retryCount: 0, timeout: options.timeoutMs ?? 15_000 }) }),
      chainChecked: false,
      restingUntil: 0,
      rateLimits: 0,
    }));
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Where each endpoint stands, for logs and the health page (keys in URLs masked). */
  health(): { url: string; restingUntil: number | null; lastError: string | null }[] {
    return this.endpoints.map((endpoint) => ({ url: maskedEndpoint(endpoint.url), restingUntil: endpoint.restingUntil > this.now() ? endpoint.restingUntil : null, lastError: endpoint.lastError ?? null }));
  }

  async call<T>(request: (client: PublicClient) => Promise<T>): Promise<T> {
    const failures: string[] = [];
    for (const endpoint of this.endpoints) {
      if (endpoint.restingUntil > this.now()) continue;
      try {
        if (!endpoint.chainChecked) {
          const chainId = await endpoint.client.getChainId();
          if (chainId !== this.options.chainId) throw new Error(`serves chain id ${chainId}, not ${this.options.chainId}`);
          endpoint.chainChecked = true;
        }
        const result = await measureUpstreamCall('USDT', `evm_rpc_${this.chain}`, () => request(endpoint.client));
        endpoint.rateLimits = 0;
        endpoint.lastError = undefined;
        return result;
      } catch (error) {
        if (isRequestTooLarge(error)) throw error; // the caller narrows the request: another endpoint would refuse it too
        endpoint.lastError = shortError(error);
        if (isRateLimit(error)) {
          endpoint.rateLimits += 1;
          const backoff = Math.min(this.options.rateLimitBackoffMs * 2 ** (endpoint.rateLimits - 1), MAX_BACKOFF_MS);
          endpoint.restingUntil = this.now() + Math.max(retryAfterMs(error) ?? 0, backoff);
        }
        failures.push(`${maskedEndpoint(endpoint.url)}: ${endpoint.lastError}`);
      }
    }
    throw new EvmEndpointsUnavailable(this.chain, failures);
  }
}

/**
 * eth_getLogs over too many blocks or results. Providers word it differently (and Infura answers it with -32005, the
 * rate-limit code), so the message decides: "query returned more than 10000 results", "Log response size exceeded",
 * "eth_getLogs range is too large, max is 1k blocks", "query exceeds max block range 100000", "limited to 1024 block range".
 */
export function isRequestTooLarge(error: unknown): boolean {
  const texts: string[] = [];
  walkCauses(error, (cause) => {
    const { message, details } = cause as { message?: unknown; details?: unknown };
    if (typeof message === 'string') texts.push(message);
    if (typeof details === 'string') texts.push(details);
  });
  return /block range|range (is )?too (large|wide)|(returned|exceeds?) (more than|max(imum)?) \d* ?(results|logs|block)|more than \d+ (results|logs)|too many (results|logs|blocks)|response size exceed|limited to \d+ block/i.test(texts.join(' '));
}
