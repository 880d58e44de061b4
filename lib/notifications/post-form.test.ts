import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startUnconnectableHost } from '../../test/unconnectable-host';
import { postForm } from './post-form';

let unconnectable: Awaited<ReturnType<typeof startUnconnectableHost>>;
let silent: http.Server;

beforeAll(async () => {
  unconnectable = await startUnconnectableHost();
  silent = http.createServer(() => undefined); // accepts and reads, never answers
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(() => {
  unconnectable.stop();
  silent.closeAllConnections();
  silent.close();
});

describe('postForm timeouts', () => {
  it('gives up on a connection that does not complete after the connect timeout (1 s by default), not the answer timeout', async () => {
    const started = performance.now();
    const outcome = await postForm(`http://127.0.0.1:${unconnectable.port}/notify`, { a: '1' });
    const took = performance.now() - started;
    expect(outcome).toMatchObject({ error: 'connect timeout after 1000 ms', unanswered: true });
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(3000);
  });

  it('fails at once on a refused connection', async () => {
    const outcome = await postForm(`http://127.0.0.1:${await closedPort()}/notify`, { a: '1' });
    expect(outcome).toMatchObject({ error: 'connection failed: ECONNREFUSED', unanswered: true });
    expect(outcome.latencyMs).toBeLessThan(500);
  });

  it('waits for the answer of a connected receiver for the response timeout, counted from the connection', async () => {
    const { port } = silent.address() as AddressInfo;
    const outcome = await postForm(`http://127.0.0.1:${port}/notify`, { a: '1' }, { connectTimeoutMs: 100, responseTimeoutMs: 400 });
    expect(outcome).toMatchObject({ error: 'timeout after 400 ms', unanswered: true });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(390);
  });

  it('an answer of any status is not "unanswered"', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(503);
      res.end('busy');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const outcome = await postForm(`http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, { a: '1' });
      expect(outcome).toMatchObject({ httpStatus: 503, body: 'busy' });
      expect(outcome.unanswered).toBeUndefined();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
