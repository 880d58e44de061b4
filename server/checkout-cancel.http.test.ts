import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { aMerchant, receivingAddresses } from '../test/factories';
import { startTestApp, type TestApp } from '../test/open-api-client';
import { serveWebHandler } from '../test/web-handler-server';
import { POST as cancelRoute } from '../app/pay/[token]/cancel/route';

let app: TestApp;
let checkout: Awaited<ReturnType<typeof serveWebHandler>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let sequence = 0;

beforeAll(async () => {
  app = await startTestApp();
  // The checkout's cancel form posts to /pay/<token>/cancel: the app route, served over HTTP.
  checkout = await serveWebHandler((request, path) => cancelRoute(request, { params: Promise.resolve({ token: path[1]! }) }));
  merchant = await aMerchant({ wholePool: true });
  await receivingAddresses(1);
});
afterAll(async () => {
  await app.close();
  await checkout.close();
});

async function anOrder(redirectUrl?: string) {
  sequence += 1;
  const fields = { appId: merchant.appId, merchantOrderNo: `CX-${process.pid}-${sequence}`, pay_usdt: `${40 + sequence}.00`, chainType: '1', notifyUrl: 'https://merchant.example/n', redirectUrl };
  const { json } = await app.signedPost('/v1/api/open/order/submit', redirectUrl ? fields : { ...fields, redirectUrl: undefined }, merchant.appSecret);
  expect(json.code).toBe(0);
  return { orderNo: json.data.orderNo as string, token: String(json.data.payUrl).split('/pay/')[1]! };
}

const cancel = (token: string, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }) =>
  fetch(`${checkout.url}/pay/${token}/cancel`, { method: 'POST', headers, redirect: 'manual' });

async function row(orderNo: string) {
  const { rows } = await getDb().execute<{ status: string; close_reason: string | null; actor: string | null }>(sql`
    SELECT status, close_reason, (SELECT actor FROM audit_log WHERE subject = 'order:' || o.order_no AND action = 'order.close') AS actor FROM orders o WHERE order_no = ${orderNo}`);
  return rows[0]!;
}

describe("the checkout's cancel (POST /pay/<token>/cancel)", () => {
  it("closes the order through the one close, audited as the payer, then sends the payer to the merchant's redirectUrl", async () => {
    const order = await anOrder('https://merchant.example/return');
    const response = await cancel(order.token);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://merchant.example/return');
    expect(await row(order.orderNo)).toEqual({ status: 'closed', close_reason: 'cancelled', actor: 'payer' });
  });

  it('without a redirectUrl, back to the checkout (which shows the closed order); a paid order is not closed', async () => {
    const order = await anOrder();
    expect((await cancel(order.token)).headers.get('location')).toBe(`/pay/${order.token}`);
    expect((await row(order.orderNo)).status).toBe('closed');
    const paid = await anOrder('https://merchant.example/return');
    await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE order_no = ${paid.orderNo}`);
    expect((await cancel(paid.token)).headers.get('location')).toBe(`/pay/${paid.token}`);
    expect((await row(paid.orderNo)).status).toBe('paid');
  });

  it("refuses another site's form (Sec-Fetch-Site: cross-site) and an unknown token", async () => {
    const order = await anOrder();
    expect((await cancel(order.token, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await row(order.orderNo)).status).toBe('pending');
    expect((await cancel('no-such-token-0123456789abcdef')).status).toBe(404);
  });
});
