import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * What hosted providers refuse in eth_getLogs, from their documentation: a block range over a cap (QuickNode, Alchemy's
 * 2K blocks, BlockPI's 1,024; answered -32602 "query exceeds max block range N") and a result over 10,000 logs
 * (Infura: -32005 "query returned more than 10000 results. Try with this block range [0x…, 0x…].", data {from, to,
 * limit}). ganache answers any range, so the sandbox node sits behind this front, which refuses the same way.
 */
export interface LogLimits {
  maxBlockRange: number;
  maxResults: number;
}

export const PROVIDER_LOG_LIMITS: LogLimits = { maxBlockRange: 10_000, maxResults: 10_000 };

interface JsonRpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
}

type Ask = (method: string, params: unknown[]) => Promise<unknown>;

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;

/** A block tag or hex quantity as a number; the spec's tags all name the head on a node that finalises at once. */
async function blockOf(tag: string | undefined, ask: Ask): Promise<bigint> {
  if (tag === undefined || tag === 'latest' || tag === 'safe' || tag === 'finalized' || tag === 'pending') return BigInt((await ask('eth_blockNumber', [])) as string);
  if (tag === 'earliest') return 0n;
  if (!QUANTITY.test(tag)) throw Object.assign(new Error(`invalid block number or tag: ${tag}`), { code: -32602 });
  return BigInt(tag);
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

async function limitedLogs(params: unknown[], ask: Ask, limits: LogLimits): Promise<unknown> {
  const filter = (params[0] ?? {}) as LogFilter;
  if (filter.blockHash === undefined) {
    const from = await blockOf(filter.fromBlock, ask);
    const to = await blockOf(filter.toBlock, ask);
    if (to >= from && to - from + 1n > BigInt(limits.maxBlockRange)) throw Object.assign(new Error(`query exceeds max block range ${limits.maxBlockRange}`), { code: -32602 });
  }
  const logs = (await ask('eth_getLogs', params)) as { blockNumber: string }[];
  if (logs.length <= limits.maxResults) return logs;
  const from = logs[0]!.blockNumber;
  const lastWhole = BigInt(logs[limits.maxResults]!.blockNumber) - 1n;
  const suggestion = BigInt(from) <= lastWhole ? `[${from}, ${hex(lastWhole)}]` : `[${from}, ${from}]`;
  throw Object.assign(new Error(`query returned more than ${limits.maxResults} results. Try with this block range ${suggestion}.`), {
    code: -32005,
    data: { from, to: suggestion.slice(suggestion.indexOf(', ') + 2, -1), limit: limits.maxResults },
  });
}

async function answer(request: JsonRpcRequest, ask: Ask, limits: LogLimits, onCall?: (method: string) => void) {
  onCall?.(String(request.method)); // every call counts, one in a batch too, as providers bill them
  try {
    const params = Array.isArray(request.params) ? request.params : [];
    const result = request.method === 'eth_getLogs' ? await limitedLogs(params, ask, limits) : await ask(String(request.method), params);
    return { jsonrpc: '2.0', id: request.id ?? null, result };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    return { jsonrpc: '2.0', id: request.id ?? null, error: { code: typeof code === 'number' ? code : -32603, message: String(message), ...(data === undefined ? {} : { data }) } };
  }
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A JSON-RPC front over HTTP for the node's provider: every call (one, or a batch) is passed to the node as it is,
 * eth_getLogs within `limits` (read at each call, so a test can lower them). Returns the listening server.
 */
export async function serveJsonRpc(ask: Ask, limits: () => LogLimits, listen: { port: number; host: string }, onCall?: (method: string) => void): Promise<Server> {
  const server = createServer((request, response) => {
    void (async () => {
      let parsed: JsonRpcRequest | JsonRpcRequest[];
      try {
        parsed = JSON.parse(await bodyOf(request)) as JsonRpcRequest | JsonRpcRequest[];
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      const reply = Array.isArray(parsed) ? await Promise.all(parsed.map((one) => answer(one, ask, limits(), onCall))) : await answer(parsed, ask, limits(), onCall);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return server;
}
