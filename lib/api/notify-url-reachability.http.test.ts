import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { privateNetworksAllowed } from '../notifications/destination-guard';
import { PRIVATE_HOST_FORMS } from '../../test/private-host-forms';

/**
 * A notifyUrl on a private network: outside development (production; NODE_ENV test stands in for it here, as
 * production would also want real keys) the service refuses it at submit (1001 naming notifyUrl) instead of accepting the
 * order and then refusing every notification; development with the sandbox on allows it, so a receiver on the
 * developer's machine gets its notifications.
 */
const SUBMIT = '/v1/api/open/order/submit';
const saved = { allow: process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS, nodeEnv: process.env.NODE_ENV, sandbox: process.env.SANDBOX_ENABLED };
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let counter = 0;

function environment(values: { nodeEnv: string; allow?: string; sandbox?: string }) {
  const env = process.env as Record<string, string | undefined>;
  env.NODE_ENV = values.nodeEnv;
  if (values.allow === undefined) delete env.NOTIFY_ALLOW_PRIVATE_NETWORKS;
  else env.NOTIFY_ALLOW_PRIVATE_NETWORKS = values.allow;
  if (values.sandbox === undefined) delete env.SANDBOX_ENABLED;
  else env.SANDBOX_ENABLED = values.sandbox;
}

function submit(fields: Record<string, string>) {
  counter += 1;
  return app.signedPost(SUBMIT, { appId: merchant.appId, merchantOrderNo: `NOTIFY-URL-${counter}-${Date.now()}`, ...fields }, merchant.appSecret);
}
// Amounts two cents apart: one merchant's orders may hold only half of an amount's slots (fair-share.ts).
const usdt = (notifyUrl: string) => submit({ pay_usdt: (3 + counter * 0.02).toFixed(2), notifyUrl });
const yht = (notifyUrl: string) => submit({ payType: 'YHT', channel: 'YHT', payMethod: 'aliPay', payMoney: '3.00', notifyUrl });
const alipay = (notifyUrl: string) => submit({ payType: 'ALIPAY', payMethod: 'web', amount: '3.00', notifyUrl });

beforeAll(async () => {
  app = await startTestApp();
  merchant = await aMerchant();
  await receivingAddresses(2);
});
afterEach(() => environment({ nodeEnv: saved.nodeEnv ?? 'test', allow: saved.allow, sandbox: saved.sandbox }));
afterAll(() => app.close());

describe('notifyUrl on a private network', () => {
  it('outside development, submit answers 1001 naming notifyUrl on every channel', async () => {
    environment({ nodeEnv: 'test' });
    expect(privateNetworksAllowed()).toBe(false);
    for (const url of ['http://127.0.0.1:4000/notify', 'http://10.1.2.3/notify', 'http://[::1]:8080/n', 'http://192.168.1.20/n', 'http://localhost:3000/n']) {
      const { json } = await usdt(url);
      expect(json, url).toMatchObject({ code: 1001, data: null });
      expect(json.message).toMatch(/^notifyUrl must be reachable from the internet: destination .* (not a public address|internal)/);
    }
    expect((await yht('http://169.254.169.254/latest')).json).toMatchObject({ code: 1001, message: expect.stringContaining('notifyUrl') });
    expect((await alipay('http://172.16.0.9/n')).json).toMatchObject({ code: 1001, message: expect.stringContaining('notifyUrl') });
  });

  it('outside development, a public address or host name is accepted as before', async () => {
    environment({ nodeEnv: 'test' });
    expect((await usdt('https://merchant.example/notify')).json).toMatchObject({ code: 0 });
    expect((await usdt('http://93.184.215.14/notify')).json).toMatchObject({ code: 0 });
    expect((await submit({ pay_usdt: '3.10', notifyUrl: 'http://[2606:4700:4700::1111]/notify' })).json).toMatchObject({ code: 0 });
    // A DNS64 network's answer for an IPv4-only host: NAT64 of a public address reaches that public address.
    expect((await submit({ pay_usdt: '3.20', notifyUrl: 'http://[64:ff9b::808:808]/notify' })).json).toMatchObject({ code: 0 });
  });

  describe(`outside development, every form of a private host is refused at submit (${PRIVATE_HOST_FORMS.length} forms)`, () => {
    it.each(PRIVATE_HOST_FORMS)('http://%s:4455/n', async (form) => {
      environment({ nodeEnv: 'test' });
      const { json } = await usdt(`http://${form}:4455/n`);
      expect(json).toMatchObject({ code: 1001, data: null });
      expect(json.message).toMatch(/^notifyUrl must be reachable from the internet: destination .* is (not a public address \(.+\)|an internal host name)$/);
    });
  });

  it('in development with the sandbox on, loopback receivers are allowed by default', async () => {
    environment({ nodeEnv: 'development' });
    expect(privateNetworksAllowed()).toBe(true);
    expect((await usdt('http://127.0.0.1:4000/notify')).json).toMatchObject({ code: 0 });
  });

  it('NOTIFY_ALLOW_PRIVATE_NETWORKS decides when it is set, and development without the sandbox keeps the guard', async () => {
    environment({ nodeEnv: 'development', allow: 'false' });
    expect((await usdt('http://127.0.0.1:4000/notify')).json).toMatchObject({ code: 1001 });
    environment({ nodeEnv: 'development', sandbox: 'false' });
    expect(privateNetworksAllowed()).toBe(false);
    environment({ nodeEnv: 'test', allow: 'true' });
    expect((await usdt('http://127.0.0.1:4000/notify')).json).toMatchObject({ code: 0 });
  });
});
