import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../clock';
import { ChainEndpointPool } from './chain-endpoints';
import { ChainUnavailable, TronGridClient } from './trongrid-client';

describe('TronGrid requests end with the job run', () => {
  it('a request to an endpoint that accepts and never answers is aborted when the run is, not after its own timeout', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const hanging = http.createServer(() => undefined); // reads the request, never answers
    hanging.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const run = new AbortController();
    const client = new TronGridClient({ endpoints: ChainEndpointPool.transient([baseUrl], systemClock), timeoutMs: 30_000, signal: run.signal });
    const started = Date.now();
    setTimeout(() => run.abort(new Error('deadline')), 200);
    await expect(client.solidifiedBlock()).rejects.toBeInstanceOf(ChainUnavailable);
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });
});
