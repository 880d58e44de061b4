import { getDb } from '../lib/db/client';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { handleGateway } from '../sandbox/alipay/gateway';
import { aMerchant } from './factories';
import { startTestApp, type TestApp } from './open-api-client';
import { serveWebHandler } from './web-handler-server';

export const SUBMIT = '/v1/api/open/order/submit';
export const QUERY = '/v1/api/open/order/query';
export const ALIPAY_CALLBACK = '/v1/api/callback/alipay';

/**
 * The service's test server plus the Alipay simulator's gateway on loopback, wired as in development: the adapter
 * talks to the simulator (ALIPAY_GATEWAY_URL) and the simulator notifies the service (PUBLIC_BASE_URL).
 */
export async function startAlipayTestBed(): Promise<{ app: TestApp; gatewayUrl: string; close(): Promise<void> }> {
  const app = await startTestApp();
  const sandbox = await serveWebHandler(async (request, path) => {
    if (path.join('/') === 'gateway.do') return handleGateway(request, getDb());
    return new Response('not found', { status: 404 });
  }, '/sandbox/alipay');
  const gatewayUrl = `${sandbox.url}/gateway.do`;
  process.env.PUBLIC_BASE_URL = app.baseUrl;
  process.env.ALIPAY_GATEWAY_URL = gatewayUrl;
  return {
    app,
    gatewayUrl,
    async close() {
      await Promise.all([app.close(), sandbox.close()]);
    },
  };
}

/** A merchant with an approved, enabled ALIPAY credential on the simulator's application (as `credential add --sandbox`). */
export async function anAlipayMerchant() {
  const merchant = await aMerchant();
  const credential = await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
  return { ...merchant, credentialId: credential.id };
}

let counter = 0;

/** An ALIPAY submit of the merchant, every field valid; `overrides` with undefined drops a field. */
export function alipaySubmit(appId: string, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const fields: Record<string, unknown> = {
    appId,
    merchantOrderNo: `ALI-${process.pid}-${counter}-${Date.now()}`,
    payType: 'ALIPAY',
    payMethod: 'web',
    amount: '12.50',
    productName: 'VIP month',
    productDesc: 'One month of VIP',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  return fields;
}
