/** A TronGrid-compatible client for what the watcher needs: confirmed Transfer events of one contract. */

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
}

export class UpstreamBusy extends Error {
  constructor(readonly status: number) {
    super(`TronGrid answered HTTP ${status}`);
    this.name = 'UpstreamBusy';
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
  return {
    transactionId: raw.transaction_id,
    eventIndex: Number(raw.event_index ?? 0),
    blockNumber: Number(raw.block_number),
    blockTimestampMs: Number(raw.block_timestamp),
    from,
    to,
    value,
  };
}

export interface TronGridClientOptions {
  baseUrl: string;
  apiKey?: string;
  fetchImpl?: typeof fetch;
  /** Waits between retries of a busy answer; tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
  retries?: number;
  timeoutMs?: number;
}

export class TronGridClient {
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: TronGridClientOptions) {
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** One page of confirmed Transfer events from `minBlockTimestampMs` on, oldest first. */
  async transferEvents(contract: string, minBlockTimestampMs: number, fingerprint?: string, limit = 200): Promise<EventPage> {
    const query = new URLSearchParams({
      event_name: 'Transfer',
      only_confirmed: 'true',
      min_block_timestamp: String(minBlockTimestampMs),
      order_by: 'block_timestamp,asc',
      limit: String(limit),
    });
    if (fingerprint) query.set('fingerprint', fingerprint);
    const body = (await this.get(`/v1/contracts/${contract}/events?${query}`)) as { data?: RawEvent[]; meta?: { fingerprint?: string } };
    const events = (body.data ?? []).map(toTransfer).filter((event): event is TransferEvent => event !== undefined);
    return { events, fingerprint: body.meta?.fingerprint || undefined };
  }

  /** Backs off on 429, 403 and 5xx (TronGrid's rate limiting and overload), then gives up with UpstreamBusy. */
  private async get(path: string): Promise<unknown> {
    const retries = this.options.retries ?? 3;
    for (let attempt = 0; ; attempt += 1) {
      const response = await this.fetchImpl(`${this.options.baseUrl}${path}`, {
        headers: { accept: 'application/json', ...(this.options.apiKey ? { 'TRON-PRO-API-KEY': this.options.apiKey } : {}) },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      if (response.ok) return response.json();
      const busy = response.status === 429 || response.status === 403 || response.status >= 500;
      await response.body?.cancel();
      if (!busy) throw new Error(`TronGrid answered HTTP ${response.status} for ${path.split('?')[0]}`);
      if (attempt >= retries) throw new UpstreamBusy(response.status);
      const retryAfter = Number(response.headers.get('retry-after'));
      await this.sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000 * 2 ** attempt);
    }
  }
}
