import { createHash } from 'node:crypto';
import { handleSandboxYhtApi } from '../sandbox/yht/http-api';
import { serveWebHandler } from './web-handler-server';
import { startTestApp, type TestApp } from './open-api-client';

export const SUBMIT = '/v1/api/open/order/submit';
export const QUERY = '/v1/api/open/order/query';
export const YHT_CALLBACK = '/v1/api/callback/yht';

/**
 * The service's test server plus the YHT simulator on loopback, wired as in development: the adapter calls the
 * simulator (YHT_BASE_URL) and the simulator calls back the service (PUBLIC_BASE_URL).
 */
export async function startYhtTestBed(): Promise<{ app: TestApp; sandboxUrl: string; close(): Promise<void> }> {
  const app = await startTestApp();
  const sandbox = await serveWebHandler((request, path) => handleSandboxYhtApi(request, path), '/sandbox/yht/api');
  const sandboxUrl = sandbox.url.replace(/\/api$/, '');
  process.env.PUBLIC_BASE_URL = app.baseUrl;
  process.env.YHT_BASE_URL = sandboxUrl;
  return {
    app,
    sandboxUrl,
    async close() {
      await Promise.all([app.close(), sandbox.close()]);
    },
  };
}

/** The YHT protocol's signature, written independently of lib/channels/yht/sign.ts. */
export function yhtSignature(fields: Record<string, string>, key: string): string {
  const text = Object.keys(fields)
    .filter((name) => name !== 'sign' && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
  return createHash('md5').update(`${text}&key=${key}`).digest('hex').toUpperCase();
}

let counter = 0;

/** A YHT submit of the merchant, every field valid; `overrides` with undefined drops a field. */
export function yhtSubmit(appId: string, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const fields: Record<string, unknown> = {
    appId,
    merchantOrderNo: `YHT-${process.pid}-${counter}-${Date.now()}`,
    payType: 'YHT',
    channel: 'YHT',
    payMethod: 'aliPay',
    payMoney: '88.50',
    productName: 'VIP month',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  return fields;
}
