import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWrkResult, runWrk } from './wrk';

/** A server that answers each body as the open API would: code 0, unless the body asks for a refusal. */
let server: http.Server;
let url: string;
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(`${request.method} ${request.headers['content-type']} ${body}`);
      const refused = body.includes('refuse');
      response.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
      response.end(refused ? '{"code":1001,"message":"refused"}' : '{"code":0,"message":"success","data":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/order`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('wrk as the load generator', () => {
  it('posts each body as JSON, counts the answers that are not code 0, and says when it ran out of bodies', async () => {
    received.length = 0;
    let loadStartedBy: number | undefined;
    const result = await runWrk({
      url,
      connections: 2,
      seconds: 1,
      timeoutSeconds: 5,
      bodies: ['{"n":"1"}', '{"n":"2","refuse":"yes"}', '{"n":"3"}'],
      onLoadStart: (pid) => (loadStartedBy = pid),
    });
    expect(loadStartedBy).toBeGreaterThan(0);
    expect(result.requests).toBeGreaterThan(30);
    expect(result.rps).toBeGreaterThan(30);
    expect(result.socketErrors).toBe(0);
    // One body in three is refused; the requests in flight when the run stops are neither counted nor answered.
    expect(result.failures / result.requests).toBeGreaterThan(0.25);
    expect(result.failures / result.requests).toBeLessThan(0.42);
    expect(result.samples[0]).toBe('HTTP 400 {"code":1001,"message":"refused"}');
    expect(result.wrapped).toBeGreaterThan(10);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    // The two connections' first requests may arrive in either order.
    expect(received.slice(0, 3).sort()).toEqual(['POST application/json {"n":"1"}', 'POST application/json {"n":"2","refuse":"yes"}', 'POST application/json {"n":"3"}']);
  });

  it('refuses a body with a line break (each line of its file is one body)', async () => {
    await expect(runWrk({ url, connections: 1, seconds: 1, timeoutSeconds: 5, bodies: ['{"a":\n1}'] })).rejects.toThrow('line break');
  });

  it('reads its result line, and refuses one it cannot read', () => {
    const result = parseWrkResult('result 5000 1000000 2150 9870 3 0 1 0 2 0', []);
    expect(result).toMatchObject({ requests: 5000, rps: 5000, p50: 2.2, p99: 9.9, failures: 3, socketErrors: 3, wrapped: 0 });
    expect(() => parseWrkResult('Running 1s test', [])).toThrow('no result line');
  });
});
