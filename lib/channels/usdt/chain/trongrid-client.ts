/** A TronGrid-compatible client for what the watcher needs: Transfer events of one contract and the solidified height. */
import { DomainError } from '../../../errors/domain-error';
import { blockDurationMs, type ChainEndpointPool } from './chain-endpoints';
import { endpointLabel } from './chain-config';
import { measureUpstreamCall } from '../../../observability/metrics';
import { readBlockList, UnusableBlockList, type TronBlock } from './tron-blocks';

export interface TransferEvent {
  transactionId: string;
  eventIndex: number;
  blockNumber: number;
  blockTimestampMs: number;
  /** As TronGrid prints them in `result` (0x-hex or base58); normalised by the caller. */
  from: string;
  to: string;
  value: string;
}

export interface EventPage {
  events: TransferEvent[];
  fingerprint?: string;
  /** The endpoint that answered: a fingerprint is only good there. */
  endpoint: string;
}

export interface SolidifiedBlock {
  number: number;
  timestampMs: number;
}

/** No endpoint could answer: each is blocked, down or refused the request. */
export class ChainUnavailable extends DomainError {
  constructor(readonly reasons: readonly string[]) {
    super('upstream_failure', { message: `no TronGrid endpoint answered: ${reasons.join('; ') || 'none configured'}` });
    this.name = 'ChainUnavailable';
  }
}

interface RawEvent {
  transaction_id?: unknown;
  event_index?: unknown;
  block_number?: unknown;
  block_timestamp?: unknown;
  event_name?: unknown;
  result?: Record<string, unknown>;
}

function toTransfer(raw: RawEvent): TransferEvent | undefined {
  const result = raw.result ?? {};
  const from = result.from ?? result['0'];
  const to = result.to ?? result['1'];
  const value = result.value ?? result['2'];
  if (raw.event_name !== 'Transfer' || typeof raw.transaction_id !== 'string' || typeof to !== 'string' || typeof from !== 'string') return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  const blockNumber = Number(raw.block_number);
  if (!Number.isSafeInteger(blockNumber) || blockNumber < 0) return undefined;
  return {
    transactionId: raw.transaction_id,
    eventIndex: Number(raw.event_index ?? 0),
    blockNumber,
    blockTimestampMs: Number(raw.block_timestamp),
    from,
    to,
    value,
  };
}

export interface TronGridClientOptions {
  endpoints: ChainEndpointPool;
  apiKey?: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  /** The job run's signal: once its deadline passes, a request in flight is aborted too, not left to its own timeout. */
  signal?: AbortSignal;
}

/** An endpoint's answer that is neither data nor a refusal to honour: the request goes to the next endpoint. */
class EndpointFailed extends Error {}

/**
 * Sends each request to the best endpoint of the pool and fails over at once to the next one when it is blocked
 * (403/429: no request goes there until the block ends), down (network error, timeout, 5xx) or answers nonsense.
 * The API key travels as TRON-PRO-API-KEY and never appears in an error message.
 */
export class TronGridClient {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: TronGridClientOptions) {
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  /** One page of confirmed Transfer events from `minBlockTimestampMs` on, oldest first; with a fingerprint, from `endpoint` only. */
  async transferEvents(contract: string, minBlockTimestampMs: number, next?: { fingerprint: string; endpoint: string }, limit = 200): Promise<EventPage> {
    const query = new URLSearchParams({
      event_name: 'Transfer',
      only_confirmed: 'true',
      min_block_timestamp: String(minBlockTimestampMs),
      order_by: 'block_timestamp,asc',
      limit: String(limit),
    });
    if (next) query.set('fingerprint', next.fingerprint);
    const { value, endpoint } = await this.request({ method: 'GET', path: `/v1/contracts/${contract}/events?${query}` }, readEventPage, next?.endpoint);
    return { ...value, endpoint };
  }

  /** The newest solidified (final) block: `POST /walletsolidity/getnowblock`. */
  async solidifiedBlock(): Promise<SolidifiedBlock> {
    return (await this.request({ method: 'POST', path: '/walletsolidity/getnowblock' }, readBlock)).value;
  }

  /**
   * The solidified blocks in [startNum, endNum) the endpoint has (`POST /walletsolidity/getblockbylimitnext`, at most
   * 100 a request), oldest first: fewer, or none, when the solidified height is below endNum.
   */
  async solidifiedBlocks(startNum: number, endNum: number, contractHex: string): Promise<{ blocks: TronBlock[]; endpoint: string }> {
    const parse = (body: unknown) => {
      try {
        return readBlockList(body, contractHex);
      } catch (error) {
        if (error instanceof UnusableBlockList) throw new EndpointFailed(error.message);
        throw error;
      }
    };
    const { value, endpoint } = await this.request({ method: 'POST', path: '/walletsolidity/getblockbylimitnext', body: JSON.stringify({ startNum, endNum }) }, parse);
    return { blocks: value, endpoint };
  }

  /** Sends one cheap request to each failing endpoint that has rested, so one that came back is seen as fine again. */
  async probeRestingEndpoints(): Promise<void> {
    await Promise.all(
      this.options.endpoints.dueForProbe().map((state) =>
        this.attempt(state.baseUrl, { method: 'POST', path: '/walletsolidity/getnowblock' }, readBlock).catch(() => undefined),
      ),
    );
  }

  private async request<T>(call: { method: string; path: string; body?: string }, parse: (body: unknown) => T, only?: string): Promise<{ value: T; endpoint: string }> {
    const pool = this.options.endpoints;
    const reasons: string[] = [];
    const candidates = only ? pool.candidates().filter((state) => state.baseUrl === only) : pool.candidates();
    for (const { baseUrl } of candidates) {
      try {
        return { value: await this.attempt(baseUrl, call, parse), endpoint: baseUrl };
      } catch (error) {
        reasons.push(`${endpointLabel(baseUrl)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const blockedUntil = pool.allBlockedUntil();
    if (blockedUntil) reasons.push(`every endpoint is rate-limited until ${blockedUntil.toISOString()}`);
    if (only && candidates.length === 0) reasons.push(`${endpointLabel(only)} is blocked`);
    throw new ChainUnavailable(reasons);
  }

  /** One request to one endpoint; records the outcome in the pool (an answer `parse` refuses is a failure). */
  private attempt<T>(baseUrl: string, call: { method: string; path: string; body?: string }, parse: (body: unknown) => T): Promise<T> {
    const operation = call.path.startsWith('/walletsolidity/getblockbylimitnext') ? 'solidified_blocks' : call.path.startsWith('/walletsolidity/') ? 'solidified_block' : 'transfer_events';
    return measureUpstreamCall('USDT', `tron_${operation}`, () => this.attemptOnce(baseUrl, call, parse));
  }

  private async attemptOnce<T>(baseUrl: string, call: { method: string; path: string; body?: string }, parse: (body: unknown) => T): Promise<T> {
    const pool = this.options.endpoints;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['TRON-PRO-API-KEY'] = this.options.apiKey;
    if (call.method === 'POST') headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(`${baseUrl}${call.path}`, {
        method: call.method,
        headers,
        body: call.method === 'POST' ? (call.body ?? '{}') : undefined,
        signal: this.options.signal
          ? AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs ?? 10_000), this.options.signal])
          : AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const message = this.scrub(error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error));
      pool.markFailing(baseUrl, message);
      throw new EndpointFailed(message);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 403 || response.status === 429) {
      const message = this.scrub(`HTTP ${response.status}: ${errorText(text)}`);
      const now = pool.now();
      const until = new Date(now.getTime() + blockDurationMs(response.headers.get('retry-after'), text, now));
      pool.markBlocked(baseUrl, until, message);
      throw new EndpointFailed(`${message} (blocked until ${until.toISOString()})`);
    }
    if (!response.ok) {
      const message = this.scrub(`HTTP ${response.status} for ${call.path.split('?')[0]}: ${errorText(text)}`);
      pool.markFailing(baseUrl, message);
      throw new EndpointFailed(message);
    }
    let value: T;
    try {
      value = parse(JSON.parse(text) as unknown);
    } catch (error) {
      const message = `unusable answer to ${call.path.split('?')[0]}: ${error instanceof EndpointFailed ? error.message : 'not JSON'}`;
      pool.markFailing(baseUrl, message);
      throw new EndpointFailed(message);
    }
    pool.markOk(baseUrl);
    return value;
  }

  private scrub(message: string): string {
    return this.options.apiKey ? message.split(this.options.apiKey).join('***') : message;
  }
}

/** TronGrid's error text: `Error` / `error` of the JSON body, else the start of the body. */
function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const error = parsed.Error ?? parsed.error ?? parsed.message;
    if (typeof error === 'string') return error;
  } catch {
    // not JSON: the raw start of the body below
  }
  return text.slice(0, 200) || '(empty answer)';
}

function readEventPage(body: unknown): Omit<EventPage, 'endpoint'> {
  const page = body as { data?: unknown; meta?: { fingerprint?: unknown } } | null;
  if (!page || !Array.isArray(page.data)) throw new EndpointFailed('events answer without a data list');
  const events = (page.data as RawEvent[]).map(toTransfer).filter((event): event is TransferEvent => event !== undefined);
  const fingerprint = typeof page.meta?.fingerprint === 'string' && page.meta.fingerprint !== '' ? page.meta.fingerprint : undefined;
  return { events, fingerprint };
}

function readBlock(body: unknown): SolidifiedBlock {
  const raw = (body as { block_header?: { raw_data?: { number?: unknown; timestamp?: unknown } } })?.block_header?.raw_data;
  const number = Number(raw?.number);
  const timestampMs = Number(raw?.timestamp);
  if (!Number.isSafeInteger(number) || number < 0 || !Number.isFinite(timestampMs)) throw new EndpointFailed('block without block_header.raw_data.number');
  return { number, timestampMs };
}
