/**
 * The sandbox TRON node on its own, in a process of its own (`tsx sandbox/tron/serve-node.ts <port>`), over the
 * database DATABASE_URL names: a benchmark measures the watcher's CPU without the node's in the same process.
 * It prints `listening <url>` once it serves `/sandbox/tron/…`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleSandboxTron } from './http-api';

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const path = url.pathname.replace(/^\/sandbox\/tron/, '').split('/').filter(Boolean);
    const body = chunks.length > 0 && req.method !== 'GET' ? new Uint8Array(Buffer.concat(chunks)) : undefined;
    void handleSandboxTron(new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body }), path).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/tron`);
});
