import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alipayAdapter } from '../channels/alipay/adapter';
import { addSandboxCredential } from '../cli/credential-add-command';
import { getDb } from '../db/client';
import { createDirectOrder } from '../orders/create-direct-order';
import { aMerchant } from '../../test/factories';
import { GONE_AFTER_MS, loadCheckout } from './load-checkout';

let merchant: Awaited<ReturnType<typeof aMerchant>>;
let sequence = 0;

beforeAll(async () => {
  process.env.PUBLIC_BASE_URL = 'http://shop.test';
  merchant = await aMerchant();
  await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
});

async function anOrder() {
  sequence += 1;
  const { order } = await createDirectOrder(
    getDb(),
    merchant.id,
    alipayAdapter,
    { merchantOrderNo: `LOAD-${sequence}`, payMethod: 'web', amountMinor: 1500n, notifyUrl: 'https://m.example/n', productName: 'Tea', redirectUrl: 'https://shop.example/back' },
    { clientIp: '127.0.0.1' },
  );
  return order;
}

describe('loadCheckout', () => {
  it('loads the channel view with the merchant the payer pays', async () => {
    const order = await anOrder();
    const checkout = await loadCheckout(getDb(), order.payToken);
    expect(checkout).toMatchObject({ kind: 'live', channel: 'ALIPAY', merchant: { name: merchant.name, logoPath: null }, view: { status: 'pending', amount: '15.00' } });
  });

  it('knows no malformed or unknown token', async () => {
    expect(await loadCheckout(getDb(), 'short')).toEqual({ kind: 'unknown' });
    expect(await loadCheckout(getDb(), 'x'.repeat(43))).toEqual({ kind: 'unknown' });
  });

  it('shows an unpaid order as expired for a day after its window, then as gone with the way back to the shop', async () => {
    const order = await anOrder();
    const justExpired = new Date(order.expiresAt.getTime() + 1000);
    expect(await loadCheckout(getDb(), order.payToken, justExpired)).toMatchObject({ kind: 'live', view: { status: 'expired' } });
    const dayLater = new Date(order.expiresAt.getTime() + GONE_AFTER_MS);
    expect(await loadCheckout(getDb(), order.payToken, dayLater)).toEqual({ kind: 'gone', merchant: { name: merchant.name, logoPath: null }, redirectUrl: 'https://shop.example/back' });
  });

  it('never calls a paid order gone: the payer may come back to see it', async () => {
    const order = await anOrder();
    await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE id = ${order.id}`);
    const muchLater = new Date(order.expiresAt.getTime() + 30 * GONE_AFTER_MS);
    expect(await loadCheckout(getDb(), order.payToken, muchLater)).toMatchObject({ kind: 'live', view: { status: 'paid' } });
  });
});
