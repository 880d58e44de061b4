import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { warmSimulatorRoutes } from './warm-simulator-routes';

describe('warmSimulatorRoutes', () => {
  it('asks every simulator route with a fixed path or a catch-all once, and no route that needs an id', async () => {
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.end('compiled');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let warmed = 0;
    try {
      warmed = await warmSimulatorRoutes(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      server.close();
    }
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(warmed).toBe(asked.length);
    expect(asked.every((line) => /^GET \/sandbox\/[\w.-]+(\/[\w.-]+)*$/.test(line)), asked.join(', ')).toBe(true);
    expect(asked.some((line) => line.includes('['))).toBe(false);
    expect(asked).toContain('GET /sandbox/alipay/gateway.do');
  });
});
