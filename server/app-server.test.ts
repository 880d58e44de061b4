import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAppServer } from './app-server';

function request(port: number, path: string): http.ClientRequest {
  const req = http.request({ port, host: '127.0.0.1', path, method: 'GET' });
  req.on('error', () => undefined);
  req.end();
  return req;
}

describe('app server in-flight requests', () => {
  it('counts a request until its handler finishes, even when the client went away and the server closed', async () => {
    let release!: () => void;
    const handlerDone = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const server = createAppServer({
      pages: async (_req, res) => {
        started();
        await handlerDone; // e.g. still using the database
        if (!res.destroyed) res.end('late');
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    expect(await server.whenIdle(10)).toBe(true);
    const client = request(port, '/slow');
    await handlerStarted;
    expect(server.inFlight).toBe(1);

    client.destroy(); // the client hangs up: its socket closes, the handler still runs
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(server.inFlight).toBe(1);
    expect(await server.whenIdle(50)).toBe(false);

    const idle = server.whenIdle(5_000);
    release();
    expect(await idle).toBe(true);
    expect(server.inFlight).toBe(0);
  });

  it('answers 405 on open-API paths for other methods without reading a body', async () => {
    const server = createAppServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/api/open/order/query`, { method: 'PUT', body: '{}' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toEqual({ code: 1003, message: 'method must be POST', data: null });
      expect(await server.whenIdle(1_000)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
