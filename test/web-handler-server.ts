import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves a web-standard handler (Request → Response) on loopback, as an upstream simulator runs in tests. */
export async function serveWebHandler(handler: (request: Request, path: string[]) => Promise<Response>, mountPath = '') {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const path = url.pathname.slice(mountPath.length).split('/').filter(Boolean);
      const body = chunks.length > 0 && req.method !== 'GET' ? new Uint8Array(Buffer.concat(chunks)) : undefined;
      const response = await handler(new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body }), path);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${mountPath}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
