/**
 * A web node of the service for fault tests: the service's own HTTP server (open API, probes; no Next.js pages) on
 * DATABASE_URL, on a free loopback port it prints as `LISTENING <port>`. Run with `node --import tsx`.
 */
import type { AddressInfo } from 'node:net';
import { reportStartupRefusals } from '../lib/config/startup-refusal';
import { createAppServer } from '../server/app-server';

reportStartupRefusals();
const server = createAppServer();
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
