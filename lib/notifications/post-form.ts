import http from 'node:http';
import https from 'node:https';
import { checkDestinationHost, guardedLookup, privateNetworksAllowed, RefusedDestination } from './destination-guard';

export const DELIVERY_TIMEOUT_MS = 10_000;

// Connections to merchants are reused; every new socket still goes through the guarded lookup below.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }) };
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostOutcome {
  httpStatus?: number;
  body: string;
  latencyMs: number;
  error?: string;
}

/**
 * POSTs a form and reads at most 64 KiB of the answer within the timeout. Redirects are never followed;
 * failures come back as an `error` text, never as a thrown exception.
 */
export async function postForm(url: string, form: Record<string, string>, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<PostOutcome> {
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
    const deadline = setTimeout(() => {
      finish({ body: '', error: `timeout after ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error instanceof RefusedDestination || error.code === 'EREFUSED_DESTINATION';
      finish({ body: '', error: refused ? `refused: ${error.message}` : `connection failed: ${error.code ?? error.message}` });
    });
    request.end(payload);
  });
}
