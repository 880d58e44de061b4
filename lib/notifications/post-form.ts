import http from 'node:http';
import https from 'node:https';
import { checkDestinationHost, guardedLookup, privateNetworksAllowed, RefusedDestination } from './destination-guard';

/** Waiting for the answer once connected; the name lookup and the TCP connection each get CONNECT_TIMEOUT_MS. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A refused, unreachable or black-holed host fails this fast instead of holding a slot for the whole timeout. */
export const CONNECT_TIMEOUT_MS = 1_000;

// Connections to merchants are reused; every new socket still goes through the guarded lookup below.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }) };
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostOutcome {
  httpStatus?: number;
  body: string;
  latencyMs: number;
  error?: string;
  /** No HTTP answer came (timeout, refused, reset, unreachable): what the destination's circuit breaker counts. */
  unanswered?: boolean;
}

export interface PostTimeouts {
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
}

/**
 * POSTs a form and reads at most 64 KiB of the answer within the timeouts. Redirects are never followed;
 * failures come back as an `error` text, never as a thrown exception.
 */
export async function postForm(url: string, form: Record<string, string>, timeouts: PostTimeouts = {}): Promise<PostOutcome> {
  const connectTimeoutMs = timeouts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const responseTimeoutMs = timeouts.responseTimeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new RefusedDestination(`unsupported scheme ${target.protocol}`);
    if (!privateNetworksAllowed()) checkDestinationHost(target.hostname);
  } catch (error) {
    return { body: '', latencyMs: elapsed(), error: error instanceof RefusedDestination ? `refused: ${error.message}` : `invalid URL: ${url}` };
  }
  const payload = new URLSearchParams(form).toString();
  const transport = target.protocol === 'https:' ? https : http;

  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const finish = (outcome: Omit<PostOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
          'user-agent': 'payment-order-service-notifier/1',
        },
        lookup: privateNetworksAllowed() ? undefined : (guardedLookup as never),
        agent: agents[target.protocol as 'http:' | 'https:'],
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          const room = MAX_RESPONSE_BYTES - size;
          chunks.push(chunk.subarray(0, room));
          size += Math.min(chunk.length, room);
          if (size >= MAX_RESPONSE_BYTES) {
            finish({ httpStatus: response.statusCode, body: Buffer.concat(chunks).toString('utf8') });
            response.destroy();
          }
        });
        response.on('end', () => finish({ httpStatus: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => finish({ httpStatus: response.statusCode, body: Buffer.concat(chunks).toString('utf8'), error: error.message }));
      },
    );
    const giveUp = (error: string) => () => {
      finish({ body: '', error, unanswered: true });
      request.destroy();
    };
    const connectTimeout = giveUp(`connect timeout after ${connectTimeoutMs} ms`);
    const responseTimeout = () => {
      clearTimeout(deadline);
      deadline = setTimeout(giveUp(`timeout after ${responseTimeoutMs} ms`), responseTimeoutMs);
    };
    // The lookup, then the TCP connection, each within the connect timeout; a reused connection starts answering at once.
    deadline = setTimeout(connectTimeout, connectTimeoutMs);
    request.on('socket', (socket) => {
      if (!socket.connecting) return responseTimeout();
      socket.once('lookup', () => {
        clearTimeout(deadline);
        deadline = setTimeout(connectTimeout, connectTimeoutMs);
      });
      socket.once('connect', responseTimeout);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error instanceof RefusedDestination || error.code === 'EREFUSED_DESTINATION';
      if (refused) finish({ body: '', error: `refused: ${error.message}` });
      else finish({ body: '', error: `connection failed: ${error.code ?? error.message}`, unanswered: true });
    });
    request.end(payload);
  });
}
