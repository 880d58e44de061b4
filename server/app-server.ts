import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPEN_API_CONTENT_TYPE, type OpenApiCore } from '../lib/api/open-api-route';
import { MAX_BODY_BYTES } from '../lib/validation/request-fields';
import { clientAddressFrom } from '../lib/accounts/client-address';
import { settleForwardedHeaders } from './forwarded-headers';
import { sameOriginPages } from './same-origin-pages';
import { publicBaseUrl } from '../lib/orders/identifiers';
import { securityHeaders } from '../lib/security/security-headers';
import { OPEN_API_ROUTES } from './open-api-routes';
import { setDefaultHeaders } from './default-headers';
import { BODY_TIMEOUT_MS, SERVER_TIMEOUTS } from './timeouts';
import { logFailure } from '../lib/callers/log-failure';
import { requestIdFrom } from '../lib/observability/request-id';
import { NO_UPGRADES, upgradeFilteringRequest, type UpgradePolicy } from './upgrade-offers';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

export interface AppServerOptions {
  /**
   * Next.js request handler for pages and every other route; without it, only the open API is served. A request
   * that changes something reaches it only from the service's own origin (server/same-origin-pages.ts).
   */
  pages?: NodeHandler;
  /** The `Upgrade` offers taken up (by the server's 'upgrade' listeners); every other is answered over HTTP/1.1. */
  acceptsUpgrade?: UpgradePolicy;
}

export interface AppServer extends http.Server {
  /** Requests whose handler is still running or whose response is not finished yet. */
  readonly inFlight: number;
  /**
   * Resolves true once no request is in flight, or false after `timeoutMs` with some still running. `server.close()`
   * returns when the sockets close, not when the handlers finish: wait for this before closing what they use.
   */
  whenIdle(timeoutMs: number): Promise<boolean>;
}

interface Body {
  /** At most MAX_BODY_BYTES plus the chunk that crossed it: past the limit nothing more is buffered. */
  bytes: Buffer;
  /** More than MAX_BODY_BYTES were sent (or declared). */
  tooLarge: boolean;
}

/**
 * Reads the body to its end, buffering at most one chunk past the limit; undefined when the client went away,
 * 'too-slow' when it has not ended within BODY_TIMEOUT_MS.
 */
function readBody(req: http.IncomingMessage): Promise<Body | 'too-slow' | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    const deadline = setTimeout(() => resolve('too-slow'), BODY_TIMEOUT_MS);
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size > MAX_BODY_BYTES) tooLarge = true;
    });
    req.on('end', () => {
      clearTimeout(deadline);
      resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), tooLarge });
    });
    // Before 'end' these mean the request was aborted (resolving twice is harmless).
    req.on('error', () => resolve(undefined));
    req.on('close', () => {
      clearTimeout(deadline);
      resolve(undefined);
    });
  });
}

/**
 * Headers as writeHead takes them in one call: a flat list of names and values. The open API's answers carry every
 * header this way (security headers, X-Request-Id, then the answer's own): one writeHead with a list costs the
 * server less than a setHeader per header, on its busiest path.
 */
type HeaderList = readonly string[];

/** A body that did not arrive in time: answered, and the connection closed (the rest of the body is never read). */
function bodyTooSlow(res: http.ServerResponse, common: HeaderList): void {
  const message = `request body not received within ${BODY_TIMEOUT_MS / 1000} s`;
  writeJson(res, common, 408, JSON.stringify({ code: 1003, message, data: null }), ['connection', 'close']);
}

/** `common`: the headers of every answer (empty where setHeader has set them already), then `own`, then the JSON's. */
function writeJson(res: http.ServerResponse, common: HeaderList, status: number, json: string, own: HeaderList = []): void {
  res.writeHead(status, [...common, ...own, 'content-type', OPEN_API_CONTENT_TYPE, 'content-length', String(Buffer.byteLength(json))]);
  res.end(json);
}

function methodNotAllowed(res: http.ServerResponse, common: HeaderList): void {
  writeJson(res, common, 405, JSON.stringify({ code: 1003, message: 'method must be POST', data: null }), ['allow', 'POST']);
}

/** An open-API endpoint, straight from node:http to its core: no Web Request/Response objects on the hot path. */
async function serveOpenApi(core: OpenApiCore, req: http.IncomingMessage, res: http.ServerResponse, common: HeaderList): Promise<void> {
  if (req.method !== 'POST') return methodNotAllowed(res, common);
  const body = await readBody(req);
  if (body === 'too-slow') return bodyTooSlow(res, common);
  if (!body) return;
  const clientAddress = clientAddressFrom(req.headers['x-forwarded-for']);
  const reply = await core({ contentType: req.headers['content-type'], body: body.tooLarge ? 'too-large' : body.bytes, clientAddress, requestId: req.headers['x-request-id'] as string });
  writeJson(res, common, reply.status, reply.json, reply.retryAfterSeconds === undefined ? [] : ['retry-after', String(reply.retryAfterSeconds)]);
}

/** Any other POST handler (e.g. an upstream callback), through a Web Request/Response bridge. */
async function serveWeb(route: (request: Request) => Promise<Response>, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST') return methodNotAllowed(res, []);
  const body = await readBody(req);
  if (body === 'too-slow') return bodyTooSlow(res, []);
  if (!body) return;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && name !== 'content-length' && name !== 'transfer-encoding') headers.set(name, value);
  }
  // Past the limit the handler answers "too large" by its own check: it is told the size (nothing more was buffered).
  if (body.tooLarge) headers.set('content-length', String(Math.max(Number(req.headers['content-length'] ?? 0), body.bytes.length)));
  const response = await route(new Request(`http://internal${req.url}`, { method: 'POST', headers, body: new Uint8Array(body.bytes) }));
  await writeWebResponse(res, response, true);
}

/** A GET handler (health probes, the OpenAPI document) through the same bridge; HEAD answers its headers only. */
async function serveGet(route: (request: Request) => Promise<Response>, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    writeJson(res, [], 405, JSON.stringify({ status: 'method not allowed' }), ['allow', 'GET, HEAD']);
    return;
  }
  // Only the headers that say who is asking (the health details are for operators and monitors).
  const headers = new Headers();
  for (const name of ['cookie', 'authorization']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const response = await route(new Request(`http://internal${req.url}`, { method: 'GET', headers }));
  await writeWebResponse(res, response, req.method === 'GET');
}

async function writeWebResponse(res: http.ServerResponse, response: Response, withBody: boolean): Promise<void> {
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (responseHeaders[name] = value));
  const payload = Buffer.from(await response.arrayBuffer());
  responseHeaders['content-length'] = String(payload.length);
  res.writeHead(response.status, responseHeaders);
  res.end(withBody ? payload : undefined);
}


export function createAppServer(options: AppServerOptions = {}): AppServer {
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  const finished = () => {
    inFlight -= 1;
    if (inFlight > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  const pages = options.pages && sameOriginPages(options.pages);
  const security: HeaderList = Object.entries(securityHeaders({ development: process.env.NODE_ENV !== 'production', publicBaseUrl: publicBaseUrl() })).flat();
  const server = http.createServer({ ...SERVER_TIMEOUTS, IncomingMessage: upgradeFilteringRequest(options.acceptsUpgrade ?? NO_UPGRADES) }, (req, res) => {
    // In flight until both the handler has settled and the response is finished (or its connection gone).
    inFlight += 1;
    let open = 2;
    const settle = () => {
      open -= 1;
      if (open === 0) finished();
    };
    res.once('close', settle);

    // Every request has an id (the caller's X-Request-Id when it is sane), answered back and handed to what it causes.
    const requestId = requestIdFrom(req.headers['x-request-id']);
    // Who sent it, to which host: from the socket unless a trusted proxy says (before any handler reads them).
    settleForwardedHeaders(req);
    req.headers['x-request-id'] = requestId;
    const common: HeaderList = [...security, 'x-request-id', requestId];
    let headersToWrite = common; // those not set on the response yet
    const path = (req.url ?? '/').split('?')[0]!;
    const route = OPEN_API_ROUTES.get(path);
    let work: Promise<void> | void;
    try {
      if (route && 'openApi' in route) work = serveOpenApi(route.openApi, req, res, common);
      else {
        // Pages and the bridged routes answer through Next.js or Web Responses: the headers are added when the head
        // is written, where the route set none of its own.
        setDefaultHeaders(res, common);
        headersToWrite = [];
        if (route) work = 'web' in route ? serveWeb(route.web, req, res) : serveGet(route.get, req, res);
        else work = pages ? pages(req, res) : notFound(res);
      }
    } catch (error) {
      work = Promise.reject(error); // a handler that threw before returning its promise
    }
    Promise.resolve(work)
      .catch((error: unknown) => {
        logFailure('http', error, 'unhandled failure', { requestId });
        if (res.writableEnded) return;
        if (!res.headersSent) res.writeHead(500, [...headersToWrite, 'content-type', OPEN_API_CONTENT_TYPE]);
        res.end(JSON.stringify({ code: 1000, message: 'internal error', data: null }));
      })
      .finally(settle);
  });

  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
  return Object.defineProperties(server, {
    inFlight: { get: () => inFlight },
    whenIdle: {
      value: (timeoutMs: number): Promise<boolean> => {
        if (inFlight === 0) return Promise.resolve(true);
        return new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), timeoutMs);
          idleWaiters.push(() => {
            clearTimeout(timer);
            resolve(true);
          });
        });
      },
    },
  }) as AppServer;
}

function notFound(res: http.ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('not found');
}

export async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
