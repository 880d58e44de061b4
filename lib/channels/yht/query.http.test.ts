import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { yhtSubmit } from '../../../test/yht-sandbox';
import { QUERY, SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { payOrder } from '../../../test/paid-orders';
import { findYhtCheckout } from './checkout-view';
import { orderQrImage } from '../../orders/order-qr-image';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

async function created(overrides: Record<string, unknown> = {}) {
  const fields = yhtSubmit(merchant.appId, overrides);
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  return { fields, data: json.data as Record<string, string> };
}

const query = (merchantOrderNo: string, extra: Record<string, unknown> = { payType: 'YHT' }, who = merchant) =>
  bed.app.signedPost(QUERY, { appId: who.appId, merchantOrderNo, ...extra }, who.appSecret);

async function orderId(orderNo: string): Promise<number> {
  const { rows } = await getDb().execute<{ id: number }>(sql`SELECT id::int AS id FROM orders WHERE order_no = ${orderNo}`);
  return rows[0]!.id;
}

const qr = (token: string, extension = 'png') => orderQrImage(getDb(), `${token}.${extension}`);

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await receivingAddresses(1);
});
afterAll(() => bed.close());

describe('query, payType YHT', () => {
  it('answers the order with the contract fields and payMoney', async () => {
    const { fields, data } = await created({ payMoney: '66.6', payMethod: 'unionPay' });
    const { status, json } = await query(fields.merchantOrderNo as string);
    expect(status).toBe(200);
    expect(json).toEqual({
      code: 0,
      message: 'success',
      data: { orderNo: data.orderNo, merchantOrderNo: fields.merchantOrderNo, payUrl: data.payUrl, qrCodeUrl: data.qrCodeUrl, payMethod: 'unionPay', status: '0', payMoney: '66.60', refundedAmount: '0.00' },
    });
  });

  it("reads '1' once paid and '2' once closed or past the window", async () => {
    const paid = await created();
    await payOrder(await orderId(paid.data.orderNo!), new Date(), 'YHT-T-1');
    expect((await query(paid.fields.merchantOrderNo as string)).json.data.status).toBe('1');

    const closed = await created();
    await getDb().execute(sql`UPDATE orders SET status = 'closed', closed_at = now() WHERE order_no = ${closed.data.orderNo!}`);
    expect((await query(closed.fields.merchantOrderNo as string)).json.data.status).toBe('2');

    const expired = await created();
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '1 second' WHERE order_no = ${expired.data.orderNo!}`);
    expect((await query(expired.fields.merchantOrderNo as string)).json.data.status).toBe('2');
  });

  it('answers 1006 for another merchant, another channel, or no order', async () => {
    const { fields } = await created();
    const other = await aMerchant();
    expect((await query(fields.merchantOrderNo as string, { payType: 'YHT' }, other)).json).toEqual({ code: 1006, message: 'order not found', data: null });
    expect((await query(fields.merchantOrderNo as string, {})).json.code).toBe(1006); // payType absent: USDT
    expect((await query(fields.merchantOrderNo as string, { payType: 'USDT' })).json.code).toBe(1006);
    expect((await query(fields.merchantOrderNo as string, { payType: 'ALIPAY' })).json.code).toBe(1006);
    expect((await query('NO-SUCH-ORDER')).json.code).toBe(1006);

    const usdt = { appId: merchant.appId, merchantOrderNo: `USDT-Q-${Date.now()}`, pay_usdt: '5', notifyUrl: 'https://merchant.example/n' };
    expect((await bed.app.signedPost(SUBMIT, usdt, merchant.appSecret)).json.code).toBe(0);
    expect((await query(usdt.merchantOrderNo)).json.code).toBe(1006);
  });

  it('answers 1002 for a bad signature (payType is signed) and 1003 without merchantOrderNo', async () => {
    const { fields } = await created();
    const { contractSignature } = await import('../../../test/beds/contract-signer');
    const signedWithout = contractSignature({ appId: merchant.appId, merchantOrderNo: fields.merchantOrderNo }, merchant.appSecret);
    const unsignedPayType = await bed.app.post(QUERY, { appId: merchant.appId, merchantOrderNo: fields.merchantOrderNo, payType: 'YHT', signature: signedWithout });
    expect(unsignedPayType.json).toEqual({ code: 1002, message: 'signature error', data: null });
    expect((await bed.app.signedPost(QUERY, { appId: merchant.appId, payType: 'YHT' }, merchant.appSecret)).json).toEqual({
      code: 1003,
      message: 'merchantOrderNo is required',
      data: null,
    });
  });

  it('is a read: repeating it changes nothing', async () => {
    const { fields } = await created();
    const first = await query(fields.merchantOrderNo as string);
    expect((await query(fields.merchantOrderNo as string)).json).toEqual(first.json);
  });
});

describe('qrCodeUrl and the checkout view', () => {
  it('serves the QR image of the upstream QR content while the order is payable, 410 after, 404 for unknown tokens', async () => {
    const { data } = await created();
    const token = /\/qr\/([^/]+)\.png$/.exec(data.qrCodeUrl!)![1]!;
    const image = await qr(token);
    expect(image.status).toBe(200);
    const bytes = Buffer.from((image as { png: Uint8Array }).png);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(200);

    expect((await qr('x'.repeat(43))).status).toBe(404);
    expect((await qr(token, 'svg')).status).toBe(404);
    expect((await qr('../etc')).status).toBe(404);

    await payOrder(await orderId(data.orderNo!), new Date(), 'YHT-T-2');
    expect((await qr(token)).status).toBe(410);
  });

  it('shows the stored state, the method and the cashier only while payable', async () => {
    const { data } = await created({ payMoney: '12.3', payMethod: 'bankFast' });
    const token = /\/pay\/([^/]+)$/.exec(data.payUrl!)![1]!;
    const pending = await findYhtCheckout(getDb(), token);
    expect(pending).toMatchObject({ orderNo: data.orderNo, payMoney: '12.30', payMethod: 'bankFast', status: 'pending', hasQr: true });
    expect(pending!.cashierUrl).toMatch(/\/sandbox\/yht\/cashier\/YHT\d+$/);
    await payOrder(await orderId(data.orderNo!), new Date(), 'YHT-T-3');
    expect(await findYhtCheckout(getDb(), token)).toMatchObject({ status: 'paid', cashierUrl: undefined, hasQr: false });
    expect(await findYhtCheckout(getDb(), 'not-a-token')).toBeUndefined();
  });
});
