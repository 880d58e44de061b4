import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServer, type AppServer } from './app-server';
import { BODY_TIMEOUT_MS, SERVER_TIMEOUTS } from './timeouts';

/** What a client that sends slowly gets: its connection closed in a bounded time, whatever it announced. */
let server: AppServer;
let port: number;

beforeAll(async () => {
  server = createAppServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends `text` on a raw connection and reports what came back and when the server closed it. */
function rawExchange(text: string): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, closedAfterMs: performance.now() - started }));
  });
}

describe('slow clients', () => {
  it('sets its timeouts deliberately, not Node.js’s defaults', () => {
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeout);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeout);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeout);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeLessThan(60_000);
    expect(SERVER_TIMEOUTS.requestTimeout).toBeLessThan(300_000);
  });

  it.concurrent('closes a submit announcing 60,000 bytes that sends 5, answering 408 once the body deadline passes', { timeout: BODY_TIMEOUT_MS + 10_000 }, async () => {
    const { answer, closedAfterMs } = await rawExchange(
      'POST /v1/api/open/order/submit HTTP/1.1\r\nHost: pay.example\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"a":',
    );
    expect(closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 100);
    expect(closedAfterMs).toBeLessThan(BODY_TIMEOUT_MS + 3_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"code":1003,"message":"request body not received within 10 s","data":null}');
    expect(await server.whenIdle(1_000)).toBe(true);
  });

  it.concurrent('closes a connection that sends no headers within the headers timeout', { timeout: SERVER_TIMEOUTS.headersTimeout + 10_000 }, async () => {
    const { answer, closedAfterMs } = await rawExchange('POST /v1/api/open/order/submit HTTP/1.1\r\nHost: pay.example\r\n');
    expect(closedAfterMs).toBeLessThan(SERVER_TIMEOUTS.headersTimeout + SERVER_TIMEOUTS.connectionsCheckingInterval + 2_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
