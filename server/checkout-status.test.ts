import type http from 'node:http';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alipayAdapter } from '../lib/channels/alipay/adapter';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { getDb } from '../lib/db/client';
import { createDirectOrder } from '../lib/orders/create-direct-order';
import { aMerchant } from '../test/factories';
import { stampCheckoutStatus } from './checkout-status';

let payToken: string;

beforeAll(async () => {
  process.env.PUBLIC_BASE_URL = 'http://shop.test';
  const merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
  const { order } = await createDirectOrder(
    getDb(),
    merchant.id,
    alipayAdapter,
    { merchantOrderNo: 'GONE-1', payMethod: 'web', amountMinor: 100n, notifyUrl: 'https://m.example/n', productName: 'Tea' },
    { clientIp: '127.0.0.1' },
  );
  payToken = order.payToken;
  await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '2 days' WHERE id = ${order.id}`);
});

async function statusFor(method: string, url: string): Promise<number> {
  const res = { statusCode: 200 } as http.ServerResponse;
  await stampCheckoutStatus(getDb, { method, url } as http.IncomingMessage, res);
  return res.statusCode;
}

describe('stampCheckoutStatus', () => {
  it('answers a payUrl closed over a day ago 410 Gone, with or without a query', async () => {
    expect(await statusFor('GET', `/pay/${payToken}`)).toBe(410);
    expect(await statusFor('GET', `/pay/${payToken}?lang=zh`)).toBe(410);
    expect(await statusFor('HEAD', `/pay/${payToken}`)).toBe(410);
  });

  it('leaves everything else to the page: its status poll, its logo, other methods, unknown tokens, other paths', async () => {
    expect(await statusFor('GET', `/pay/${payToken}/status`)).toBe(200);
    expect(await statusFor('GET', `/pay/${payToken}/logo?v=1`)).toBe(200);
    expect(await statusFor('POST', `/pay/${payToken}`)).toBe(200);
    expect(await statusFor('GET', `/pay/${'x'.repeat(43)}`)).toBe(200);
    expect(await statusFor('GET', '/portal')).toBe(200);
  });
});
