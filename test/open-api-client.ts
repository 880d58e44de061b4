import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createAppServer } from '../server/app-server';
import { contractSignature } from './beds/contract-signer';

export interface TestApp {
  baseUrl: string;
  close(): Promise<void>;
  /** POSTs a raw body (string) or a JSON object as is. */
  post(path: string, body: string | Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  /** Signs the fields with the secret (independent implementation), then POSTs them. */
  signedPost(path: string, fields: Record<string, unknown>, appSecret: string): Promise<{ status: number; json: any }>;
}

/** The service's own HTTP server (open API; pages are not needed here) on a free loopback port. */
export async function startTestApp(): Promise<TestApp> {
  const server = createAppServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post: TestApp['post'] = async (path, body, headers = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, json };
  };
  return {
    baseUrl,
    post,
    signedPost: (path, fields, appSecret) => post(path, { ...fields, signature: contractSignature(fields, appSecret) }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The service's HTTP server with HEALTH_DETAILS_TOKEN set while it runs (cleared by close), and the header a monitor
 * sends to read `/healthz?details` with it.
 */
export async function startTestAppForMonitor(): Promise<TestApp & { monitor: { authorization: string } }> {
  const token = randomBytes(24).toString('base64url');
  process.env.HEALTH_DETAILS_TOKEN = token;
  const app = await startTestApp();
  return {
    ...app,
    monitor: { authorization: `Bearer ${token}` },
    close: async () => {
      delete process.env.HEALTH_DETAILS_TOKEN;
      await app.close();
    },
  };
}
