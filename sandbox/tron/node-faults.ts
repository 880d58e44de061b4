/**
 * The sandbox chain is served through named nodes (`/sandbox/tron/nodes/<name>/…`; `/sandbox/tron/…` is the node
 * "default"), all over the same ledger, so a test can list several endpoints and make one misbehave the way TronGrid
 * does: over its rate limit (403 with TronGrid's "suspended for 30s" message, or 429 with Retry-After), then
 * refusing every request until the block ends; or down (502 from the gateway in front of a dead node).
 * The state lives in this process's memory: it is a test hook, not chain data.
 */

export type NodeFault = { rateLimit: { status: 403 | 429; blockSeconds: number; retryAfter: boolean } } | { down: true };

interface NodeState {
  fault?: NodeFault;
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

/** Sets (or with undefined clears) a node's fault and zeroes its counters. */
export function setNodeFault(name: string, fault: NodeFault | undefined): void {
  nodes.set(name, { fault, requests: 0, requestsWhileBlocked: 0, requestsWithApiKey: 0 });
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
  };
}

function rateLimitMessage(seconds: number): string {
  return `The key exceeds the frequency limit(15), and the query server is suspended for ${seconds}s`;
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
  if (!fault) return undefined;
  if ('down' in fault) return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
  if (state.blockedUntilMs === undefined) {
    state.blockedUntilMs = nowMs + fault.rateLimit.blockSeconds * 1000;
  } else if (nowMs >= state.blockedUntilMs) {
    state.fault = undefined;
    state.blockedUntilMs = undefined;
    return undefined;
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
