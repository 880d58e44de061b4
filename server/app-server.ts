import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from '../lib/api/request-fields';
import { OPEN_API_ROUTES } from './open-api-routes';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

export interface AppServerOptions {
  /** Next.js request handler for pages and every other route; without it, only the open API is served. */
  pages?: NodeHandler;
}

/** Reads the body, stopping one byte past the limit (the route answers "too large" without buffering more). */
function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      size += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function dispatchOpenApi(route: (request: Request) => Promise<Response>, req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ code: 1003, message: 'method must be POST', data: null }));
    return;
  }
  const body = await readBody(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && name !== 'content-length' && name !== 'transfer-encoding') headers.set(name, value);
  }
  const response = await route(new Request(`http://internal${req.url}`, { method: 'POST', headers, body: new Uint8Array(body) }));
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (responseHeaders[name] = value));
  const payload = Buffer.from(await response.arrayBuffer());
  responseHeaders['content-length'] = String(payload.length);
  res.writeHead(response.status, responseHeaders);
  res.end(payload);
}

export function createAppServer(options: AppServerOptions = {}): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = OPEN_API_ROUTES.get(path);
    const work = route ? dispatchOpenApi(route, req, res) : options.pages ? options.pages(req, res) : notFound(res);
    Promise.resolve(work).catch((error: unknown) => {
      console.error('http: unhandled failure', error instanceof Error ? error.stack : error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: 1000, message: 'internal error', data: null }));
    });
  });
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
