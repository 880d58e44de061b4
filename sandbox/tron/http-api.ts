import { getDb } from '../../lib/db/client';
import { contractEvents, BLOCK_INTERVAL_MS, confirmationDelayMs, sendSandboxTransfer, SandboxQueryRefused, SandboxTransferRefused } from './ledger';
import { faultAnswer, nodeReport, NodeFaultRefused, parseNodeFault, parseNodeLimits, setNodeFault, setNodeLimits } from './node-faults';
import { blocksByLimitNext } from './blocks';
import { sandboxNowMs, setSandboxTronClock } from './sandbox-clock';

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}

function block(number: number) {
  return { blockID: number.toString(16).padStart(64, '0'), block_header: { raw_data: { number, timestamp: number * BLOCK_INTERVAL_MS } } };
}

/** The head is the block being produced now; the solidified height lags it by its slot and the confirmation delay (about a minute on mainnet). */
function headBlock(now: number): number {
  return Math.floor(now / BLOCK_INTERVAL_MS);
}

/** A block is solidified the confirmation delay after its slot has closed: a block served as final gets no more transfers. */
function solidifiedBlock(now: number): number {
  return Math.floor((now - confirmationDelayMs()) / BLOCK_INTERVAL_MS) - 1;
}

async function readInput(request: Request): Promise<{ input: Record<string, unknown>; isForm: boolean }> {
  if (request.method === 'GET') return { input: Object.fromEntries(new URL(request.url).searchParams.entries()), isForm: false };
  const isForm = (request.headers.get('content-type') ?? '').includes('form');
  const input = isForm ? Object.fromEntries((await request.formData()).entries()) : ((await request.json().catch(() => ({}))) as Record<string, unknown>);
  return { input, isForm };
}

/**
 * The sandbox chain's HTTP face, TronGrid-style: `GET /v1/contracts/{contract}/events`, `POST|GET /wallet/getnowblock`,
 * `POST|GET /walletsolidity/getnowblock`; the same through a named node at `/nodes/{node}/…`, with its test hook
 * `GET|POST /nodes/{node}/fault` (see node-faults.ts); plus `POST /transfer` (form or JSON: to, amount, and
 * indexDelayMs for a block the indexer lists late) for the sandbox wallet; `POST|GET /walletsolidity/getblockbylimitnext`
 * (blocks.ts); and the simulation's clock hook `POST /clock` (`{"nowMs":…}`, `{}` for the wall clock).
 */
/**
 * The requests that change the simulation (a transfer, which can pay an order; the clock; a node's faults), as
 * opposed to reading it: TronGrid's own reads are POSTs too (`/wallet/getnowblock`), and the chain watcher makes them.
 */
export function changesSandboxTron(method: string, path: readonly string[]): boolean {
  if (method === 'GET') return false;
  return (path.length === 1 && (path[0] === 'transfer' || path[0] === 'clock')) || (path[0] === 'nodes' && path[2] === 'fault' && path.length === 3);
}

export async function handleSandboxTron(request: Request, path: readonly string[]): Promise<Response> {
  const url = new URL(request.url);
  if (path[0] === 'clock' && path.length === 1) return clockHook(request);
  const now = sandboxNowMs();
  if (path[0] === 'nodes' && path[1]) {
    if (path[2] === 'fault' && path.length === 3) return faultHook(request, path[1], now);
    return nodeApi(request, path[1], path.slice(2), url, now);
  }
  if (request.method === 'POST' && path[0] === 'transfer' && path.length === 1) {
    const { input, isForm } = await readInput(request);
    try {
      const indexDelayMs = input.indexDelayMs === undefined || input.indexDelayMs === '' ? undefined : Number(input.indexDelayMs);
      const transfer = await sendSandboxTransfer(getDb(), { to: String(input.to ?? '').trim(), amount: String(input.amount ?? '').trim(), indexDelayMs }, now);
      if (isForm) return Response.redirect(new URL(`../tron?${walletQuery(transfer.transactionId, input)}`, `${url.origin}${url.pathname}`), 303);
      return json(transfer);
    } catch (error) {
      if (error instanceof SandboxTransferRefused) return json({ error: error.message }, 400);
      throw error;
    }
  }
  return nodeApi(request, 'default', path, url, now);
}

async function nodeApi(request: Request, node: string, path: readonly string[], url: URL, now: number): Promise<Response> {
  const [first, second, third, fourth] = path;
  const fullNodeApi = first === 'wallet' || first === 'walletsolidity';
  const refused = faultAnswer(node, request, fullNodeApi, now);
  if (refused) return refused;
  const blockRequest = (request.method === 'POST' || request.method === 'GET') && second === 'getnowblock' && path.length === 2;
  if (request.method === 'GET' && first === 'v1' && second === 'contracts' && third && fourth === 'events' && path.length === 4) {
    const query = new URLSearchParams(url.searchParams);
    query.set('contract', third);
    try {
      return json(await contractEvents(getDb(), query, now, node));
    } catch (error) {
      if (error instanceof SandboxQueryRefused) return json({ Success: false, Error: error.message, StatusCode: 400 }, 400);
      throw error;
    }
  }
  if ((request.method === 'POST' || request.method === 'GET') && first === 'walletsolidity' && second === 'getblockbylimitnext' && path.length === 2) {
    return json(await blocksByLimitNext(getDb(), (await readInput(request)).input, solidifiedBlock(now), now, BLOCK_INTERVAL_MS));
  }
  if (blockRequest && first === 'wallet') return json(block(headBlock(now)));
  if (blockRequest && first === 'walletsolidity') return json(block(solidifiedBlock(now)));
  return json({ error: 'not found' }, 404);
}

async function faultHook(request: Request, node: string, now: number): Promise<Response> {
  if (request.method === 'GET') return json(nodeReport(node, now));
  if (request.method !== 'POST') return json({ error: 'method not allowed' }, 405);
  try {
    const { input } = await readInput(request);
    const limits = parseNodeLimits(input);
    if (limits !== undefined) setNodeLimits(node, limits);
    else setNodeFault(node, parseNodeFault(input));
    return json(nodeReport(node, now));
  } catch (error) {
    if (error instanceof NodeFaultRefused) return json({ error: error.message }, 400);
    throw error;
  }
}

/** The simulation's clock: `{"nowMs": 1700000000000}` sets it, `{}` returns to the wall clock. */
async function clockHook(request: Request): Promise<Response> {
  if (request.method === 'GET') return json({ nowMs: sandboxNowMs() });
  if (request.method !== 'POST') return json({ error: 'method not allowed' }, 405);
  const { input } = await readInput(request);
  try {
    setSandboxTronClock(input.nowMs === undefined ? undefined : Number(input.nowMs));
  } catch (error) {
    if (error instanceof RangeError) return json({ error: error.message }, 400);
    throw error;
  }
  return json({ nowMs: sandboxNowMs() });
}

/** Where the wallet form's answer goes (POST-redirect-GET): the empty wallet saying what was sent, with its language and checkout. */
function walletQuery(transactionId: string, input: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams({ sent: transactionId });
  if (typeof input.lang === 'string' && /^(zh|en|zh-CN)$/.test(input.lang)) query.set('lang', input.lang);
  // Only a checkout page of this service, never another site.
  if (typeof input.back === 'string' && /^\/pay\/[A-Za-z0-9_-]{20,100}$/.test(input.back)) query.set('back', input.back);
  return query;
}
