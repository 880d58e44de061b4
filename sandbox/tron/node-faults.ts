/**
 * The sandbox chain is served through named nodes (`/sandbox/tron/nodes/<name>/…`; `/sandbox/tron/…` is the node
 * "default"), all over the same ledger, so a test can list several endpoints and make one misbehave the way TronGrid
 * does: over its rate limit (403 with TronGrid's "suspended for 30s" message, or 429 with Retry-After), then
 * refusing every request until the block ends; or down (502 from the gateway in front of a dead node).
 * The state lives in this process's memory: it is a test hook, not chain data.
 */

export type NodeFault = { rateLimit: { status: 403 | 429; blockSeconds: number; retryAfter: boolean } } | { down: true };

/**
 * TronGrid's documented limits for a key (developers.tron.network, "Rate Limits"): a daily total per account
 * (100,000 requests), and a frequency limit while under it (15 requests a second; over it, 403 "…suspended for 30s"
 * and no answer for 30 s); past the daily total, only a very low frequency (about 1 request a second) is answered,
 * the rest refused (429 with Retry-After here). The day is the sandbox clock's UTC day.
 */
export interface NodeLimits {
  perSecond: number;
  dailyQuota: number;
}

interface NodeState {
  fault?: NodeFault;
  limits?: NodeLimits;
  /** The frequency limit's window (second) and the day's count, by the sandbox clock. */
  second?: { startMs: number; count: number };
  day?: { index: number; count: number; overQuotaSecondMs?: number };
  suspendedUntilMs?: number;
  /** Set when a rate-limit fault trips: every request before this time is refused. */
  blockedUntilMs?: number;
  requests: number;
  requestsWhileBlocked: number;
  requestsWithApiKey: number;
}

const registry = globalThis as typeof globalThis & { __sandboxTronNodes?: Map<string, NodeState> };
const nodes = (registry.__sandboxTronNodes ??= new Map<string, NodeState>());

function node(name: string): NodeState {
  let state = nodes.get(name);
  if (!state) {
    state = { requests: 0, requestsWhileBlocked: 0, requestsWithApiKey: 0 };
    nodes.set(name, state);
  }
  return state;
}

export class NodeFaultRefused extends Error {}

/** Reads a fault from a hook's JSON body: `{}` clears, `{"down":true}`, `{"rateLimit":{"status":403,"blockSeconds":30}}`. */
export function parseNodeFault(input: unknown): NodeFault | undefined {
  const body = (input ?? {}) as Record<string, unknown>;
  if (body.down === true) return { down: true };
  if (body.rateLimit === undefined) return undefined;
  const rateLimit = body.rateLimit as Record<string, unknown>;
  const status = Number(rateLimit.status ?? 403);
  if (status !== 403 && status !== 429) throw new NodeFaultRefused('rateLimit.status must be 403 or 429');
  const blockSeconds = Number(rateLimit.blockSeconds ?? 30);
  if (!Number.isFinite(blockSeconds) || blockSeconds <= 0 || blockSeconds > 3600) throw new NodeFaultRefused('rateLimit.blockSeconds must be between 0 and 3600');
  return { rateLimit: { status, blockSeconds, retryAfter: rateLimit.retryAfter !== false } };
}

/** Sets (or with undefined clears) a node's fault and zeroes its counters; its limits stay. */
export function setNodeFault(name: string, fault: NodeFault | undefined): void {
  nodes.set(name, { fault, limits: nodes.get(name)?.limits, requests: 0, requestsWhileBlocked: 0, requestsWithApiKey: 0 });
}

/** Reads limits from a hook's body: `{"limits":{"perSecond":15,"dailyQuota":100000}}`; `{"limits":null}` lifts them. */
export function parseNodeLimits(input: unknown): NodeLimits | null | undefined {
  const body = (input ?? {}) as Record<string, unknown>;
  if (body.limits === undefined) return undefined;
  if (body.limits === null) return null;
  const limits = body.limits as Record<string, unknown>;
  const perSecond = Number(limits.perSecond ?? 15);
  const dailyQuota = Number(limits.dailyQuota ?? 100_000);
  if (!Number.isInteger(perSecond) || perSecond < 1) throw new NodeFaultRefused('limits.perSecond must be a whole number of at least 1');
  if (!Number.isInteger(dailyQuota) || dailyQuota < 1) throw new NodeFaultRefused('limits.dailyQuota must be a whole number of at least 1');
  return { perSecond, dailyQuota };
}

/** Sets (or with null lifts) a node's documented limits, counting afresh. */
export function setNodeLimits(name: string, limits: NodeLimits | null): void {
  const state = node(name);
  state.limits = limits ?? undefined;
  state.second = undefined;
  state.day = undefined;
  state.suspendedUntilMs = undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Counts the request against the node's limits; the refusal TronGrid would answer, or undefined. */
function limitAnswer(state: NodeState, fullNodeApi: boolean, nowMs: number): Response | undefined {
  const limits = state.limits;
  if (!limits) return undefined;
  const dayIndex = Math.floor(nowMs / DAY_MS);
  if (state.day?.index !== dayIndex) state.day = { index: dayIndex, count: 0 };
  state.day.count += 1;
  if (state.suspendedUntilMs !== undefined && nowMs < state.suspendedUntilMs) {
    state.requestsWhileBlocked += 1;
    return refusal(403, rateLimitMessage(30, limits.perSecond), fullNodeApi, state.suspendedUntilMs - nowMs);
  }
  if (state.day.count > limits.dailyQuota) {
    // Over the day's total: about one request a second is still answered.
    const second = Math.floor(nowMs / 1000) * 1000;
    if (state.day.overQuotaSecondMs === second) return refusal(429, 'The daily request limit of the key is exceeded', fullNodeApi, second + 1000 - nowMs);
    state.day.overQuotaSecondMs = second;
    return undefined;
  }
  if (!state.second || nowMs - state.second.startMs >= 1000) state.second = { startMs: nowMs, count: 0 };
  state.second.count += 1;
  if (state.second.count > limits.perSecond) {
    state.suspendedUntilMs = nowMs + 30_000;
    return refusal(403, rateLimitMessage(30, limits.perSecond), fullNodeApi, 30_000);
  }
  return undefined;
}

function refusal(status: 403 | 429, message: string, fullNodeApi: boolean, remainingMs: number): Response {
  const body = fullNodeApi ? { Error: message } : { Success: false, Error: message, StatusCode: status };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 429) headers['retry-after'] = String(Math.max(1, Math.ceil(remainingMs / 1000)));
  return new Response(JSON.stringify(body), { status, headers });
}

export function nodeReport(name: string, nowMs = Date.now()) {
  const state = node(name);
  const blocked = state.blockedUntilMs !== undefined && state.blockedUntilMs > nowMs;
  return {
    node: name,
    fault: state.fault ?? null,
    blockedUntil: blocked ? new Date(state.blockedUntilMs!).toISOString() : null,
    requests: state.requests,
    requestsWhileBlocked: state.requestsWhileBlocked,
    requestsWithApiKey: state.requestsWithApiKey,
    limits: state.limits ?? null,
    requestsToday: state.day?.count ?? 0,
  };
}

function rateLimitMessage(seconds: number, perSecond = 15): string {
  return `The key exceeds the frequency limit(${perSecond}), and the query server is suspended for ${seconds}s`;
}

/**
 * Counts the request and answers for the node when it is down or rate-limited; undefined lets the request through.
 * A rate-limit fault trips on the next request and then refuses everything for the whole block; once the block is
 * over the node answers normally again (the fault is used up).
 */
export function faultAnswer(name: string, request: Request, fullNodeApi: boolean, nowMs = Date.now()): Response | undefined {
  const state = node(name);
  state.requests += 1;
  if (request.headers.get('TRON-PRO-API-KEY')) state.requestsWithApiKey += 1;
  const fault = state.fault;
  if (!fault) return limitAnswer(state, fullNodeApi, nowMs);
  if ('down' in fault) return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
  if (state.blockedUntilMs === undefined) {
    state.blockedUntilMs = nowMs + fault.rateLimit.blockSeconds * 1000;
  } else if (nowMs >= state.blockedUntilMs) {
    state.fault = undefined;
    state.blockedUntilMs = undefined;
    return limitAnswer(state, fullNodeApi, nowMs);
  } else {
    state.requestsWhileBlocked += 1;
  }
  const { status, blockSeconds, retryAfter } = fault.rateLimit;
  const remaining = Math.max(1, Math.ceil((state.blockedUntilMs - nowMs) / 1000));
  const message = status === 403 ? rateLimitMessage(blockSeconds) : 'Too Many Requests';
  const body = fullNodeApi ? { Error: message } : { Success: false, Error: message, StatusCode: status };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 429 && retryAfter) headers['retry-after'] = String(remaining);
  return new Response(JSON.stringify(body), { status, headers });
}
