import { sql } from 'drizzle-orm';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { contractSignature } from '../../../test/beds/contract-signer';
import { yhtSignature, yhtSubmit } from '../../../test/yht-sandbox';
import { QUERY, SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { DomainError } from '../../errors/domain-error';
import { YHT_SANDBOX_KEY } from './config';
import { createDirectOrder } from '../../orders/create-direct-order';
import { yhtAdapter } from './adapter';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

async function counts(): Promise<{ orders: number; upstream: number; sandbox: number }> {
  const { rows } = await getDb().execute<{ orders: number; upstream: number; sandbox: number }>(sql`
    SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM upstream_orders) AS upstream,
           (SELECT count(*)::int FROM sandbox_yht_orders) AS sandbox`);
  return rows[0]!;
}

const submit = (overrides: Record<string, unknown> = {}, secret = merchant.appSecret) => bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId, overrides), secret);

/** A stand-in upstream that answers every call with `answer` (or closes the socket). */
async function fakeUpstream(answer: (body: string) => { status: number; body: string } | 'hang-up') {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const reply = answer(body);
      if (reply === 'hang-up') return req.socket.destroy();
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function withUpstream<T>(url: string, work: () => Promise<T>): Promise<T> {
  const previous = process.env.YHT_BASE_URL;
  process.env.YHT_BASE_URL = url;
  try {
    return await work();
  } finally {
    process.env.YHT_BASE_URL = previous;
  }
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await receivingAddresses(1);
});
afterAll(() => bed.close());

describe('submit, YHT variant', () => {
  it('creates the upstream order and answers exactly the contract fields', async () => {
    const fields = yhtSubmit(merchant.appId, { payMoney: '88.5', payMethod: 'wxH5' });
    const { status, json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    expect(status).toBe(200);
    expect(json.code).toBe(0);
    expect(json.message).toBe('success');
    expect(Object.keys(json.data)).toEqual(['orderNo', 'merchantOrderNo', 'payUrl', 'qrCodeUrl', 'payMethod', 'status']);
    expect(json.data).toMatchObject({ merchantOrderNo: fields.merchantOrderNo, payMethod: 'wxH5', status: '0' });
    expect(json.data.orderNo).toMatch(/^Y\d{22}$/);
    const token = /\/pay\/([A-Za-z0-9_-]{43})$/.exec(json.data.payUrl)![1];
    expect(json.data.payUrl).toBe(`${bed.app.baseUrl}/pay/${token}`);
    expect(json.data.qrCodeUrl).toBe(`${bed.app.baseUrl}/qr/${token}.png`);

    const { rows } = await getDb().execute<Record<string, unknown>>(sql`
      SELECT o.channel, o.currency, o.pay_amount_minor::int AS amount, o.pay_method, o.status, s.amount_minor::int AS upstream_amount,
             s.pay_method AS upstream_method, s.notify_url, s.return_url, u.upstream_order_no = s.trade_no AS same_trade
      FROM orders o JOIN upstream_orders u ON u.order_id = o.id JOIN sandbox_yht_orders s ON s.out_trade_no = o.order_no
      WHERE o.order_no = ${json.data.orderNo}`);
    expect(rows[0]).toEqual({
      channel: 'YHT',
      currency: 'CNY',
      amount: 8850,
      pay_method: 'wxH5',
      status: 'pending',
      upstream_amount: 8850,
      upstream_method: 'wxH5',
      notify_url: `${bed.app.baseUrl}/v1/api/callback/yht`,
      return_url: json.data.payUrl,
      same_trade: true,
    });
  });

  it.each(['wxH5', 'wxPub', 'wxLite', 'aliPay', 'unionPay', 'bankCard', 'bankFast'])('accepts payMethod %s', async (payMethod) => {
    const { json } = await submit({ payMethod });
    expect(json.code).toBe(0);
    expect(json.data.payMethod).toBe(payMethod);
  });

  it('accepts payMoney with at most 2 decimals, as text or a JSON number, and reads it back with exactly 2', async () => {
    for (const [payMoney, shown] of [
      ['12', '12.00'],
      ['12.5', '12.50'],
      ['0.01', '0.01'],
      [7.25, '7.25'],
    ] as const) {
      const fields = yhtSubmit(merchant.appId, { payMoney });
      expect((await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json.code).toBe(0);
      const query = await bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo: fields.merchantOrderNo, payType: 'YHT' }, merchant.appSecret);
      expect(query.json.data.payMoney).toBe(shown);
    }
  });

  it.each([
    [{ payMoney: '1.234' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: '0' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: '0.00' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: '-1' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: '1e2' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: '１０' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: 'abc' }, 1003, 'payMoney must be a decimal number greater than 0 with at most 2 decimal places'],
    [{ payMoney: undefined }, 1003, 'payMoney is required'],
    [{ payMoney: undefined, amount: '10' }, 1003, 'payMoney is required'],
    [{ channel: undefined }, 1003, 'channel is required'],
    [{ channel: 'ALIPAY' }, 1003, 'channel must be YHT'],
    [{ channel: 'yht' }, 1003, 'channel must be YHT'],
    [{ payMethod: undefined }, 1003, 'payMethod is required'],
    [{ payMethod: 'wap' }, 1003, 'payMethod must be one of wxH5, wxPub, wxLite, aliPay, unionPay, bankCard, bankFast'],
    [{ payMethod: 'WXH5' }, 1003, 'payMethod must be one of wxH5, wxPub, wxLite, aliPay, unionPay, bankCard, bankFast'],
    [{ payType: 'yht' }, 1003, 'payType must be one of USDT, ALIPAY, WECHAT, YHT'],
    [{ merchantOrderNo: undefined }, 1003, 'merchantOrderNo is required'],
    [{ merchantOrderNo: 'has space' }, 1003, 'merchantOrderNo must be 1 to 64 visible ASCII characters'],
    [{ notifyUrl: undefined }, 1003, 'notifyUrl is required'],
    [{ notifyUrl: 'not a url' }, 1001, 'invalid callback URL'],
    [{ notifyUrl: 'ftp://merchant.example/n' }, 1001, 'invalid callback URL'],
    [{ redirectUrl: '/relative' }, 1001, 'invalid callback URL'],
    [{ productName: 'p'.repeat(129) }, 1003, 'productName must be at most 128 characters'],
    [{ attach: 'a'.repeat(1025) }, 1003, 'attach must be at most 1024 characters'],
  ])('refuses %j with %i, and creates nothing here or upstream', async (overrides, code, message) => {
    const before = await counts();
    const { status, json } = await submit(overrides);
    expect(status).toBe(200);
    expect(json).toEqual({ code, message, data: null });
    expect(await counts()).toEqual(before);
  });

  it('answers 1002 for another secret, a tampered field or an unsigned extra field', async () => {
    const fields = yhtSubmit(merchant.appId);
    const other = await aMerchant();
    expect((await bed.app.signedPost(SUBMIT, fields, other.appSecret)).json).toEqual({ code: 1002, message: 'signature error', data: null });
    const signature = contractSignature(fields, merchant.appSecret);
    expect((await bed.app.post(SUBMIT, { ...fields, signature, payMoney: '0.01' })).json.code).toBe(1002);
    expect((await bed.app.post(SUBMIT, { ...fields, signature, payMethod: 'bankCard' })).json.code).toBe(1002);
    expect((await bed.app.post(SUBMIT, { ...fields, signature, extra: 'x' })).json.code).toBe(1002);
  });

  it('answers 1003 without signature, 1005 for an unknown appId, 1004 without order permission', async () => {
    expect((await bed.app.post(SUBMIT, yhtSubmit(merchant.appId))).json).toEqual({ code: 1003, message: 'signature is required', data: null });
    expect((await bed.app.signedPost(SUBMIT, yhtSubmit('mch_unknown'), merchant.appSecret)).json).toEqual({ code: 1005, message: 'merchant not found', data: null });
    const blocked = await aMerchant({ orderPermission: false });
    const before = await counts();
    expect((await bed.app.signedPost(SUBMIT, yhtSubmit(blocked.appId), blocked.appSecret)).json).toEqual({ code: 1004, message: 'order permission disabled', data: null });
    expect(await counts()).toEqual(before);
  });

  it('answers 1003 for a malformed body', async () => {
    expect((await bed.app.post(SUBMIT, '{"appId":')).json.code).toBe(1003);
    expect((await bed.app.post(SUBMIT, { ...yhtSubmit(merchant.appId), payMoney: { value: 1 } })).json).toEqual({
      code: 1003,
      message: 'payMoney must be a string, not an object',
      data: null,
    });
  });

  it('is idempotent by merchantOrderNo: a replay returns the original order; another payMoney or payMethod is 1007', async () => {
    const fields = yhtSubmit(merchant.appId, { payMoney: '30.00' });
    const first = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
    const before = await counts();
    expect((await bed.app.signedPost(SUBMIT, fields, merchant.appSecret)).json).toEqual(first.json);
    const sameAmountOtherText = await bed.app.signedPost(SUBMIT, { ...fields, payMoney: '30', notifyUrl: 'https://other.example/n' }, merchant.appSecret);
    expect(sameAmountOtherText.json).toEqual(first.json);
    const otherMoney = await bed.app.signedPost(SUBMIT, { ...fields, payMoney: '30.01' }, merchant.appSecret);
    expect(otherMoney.json.code).toBe(1007);
    expect(otherMoney.json.message).toContain('payMoney');
    const otherMethod = await bed.app.signedPost(SUBMIT, { ...fields, payMethod: 'unionPay' }, merchant.appSecret);
    expect(otherMethod.json.code).toBe(1007);
    expect(otherMethod.json.message).toContain('payMethod');
    expect(await counts()).toEqual(before);
  });

  it('answers 1007 when the merchantOrderNo belongs to an order of another channel, both ways', async () => {
    const usdt = { appId: merchant.appId, merchantOrderNo: `USDT-${Date.now()}`, pay_usdt: '5', notifyUrl: 'https://merchant.example/n' };
    expect((await bed.app.signedPost(SUBMIT, usdt, merchant.appSecret)).json.code).toBe(0);
    const yht = await submit({ merchantOrderNo: usdt.merchantOrderNo });
    expect(yht.json.code).toBe(1007);
    expect(yht.json.message).toContain('USDT');

    const yhtFirst = yhtSubmit(merchant.appId);
    expect((await bed.app.signedPost(SUBMIT, yhtFirst, merchant.appSecret)).json.code).toBe(0);
    const usdtAfter = await bed.app.signedPost(SUBMIT, { ...usdt, merchantOrderNo: yhtFirst.merchantOrderNo }, merchant.appSecret);
    expect(usdtAfter.json.code).toBe(1007);
  });

  it('answers concurrent creates of one merchantOrderNo with one order', async () => {
    const fields = yhtSubmit(merchant.appId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => bed.app.signedPost(SUBMIT, fields, merchant.appSecret)));
    expect(answers.map((answer) => answer.json.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(new Set(answers.map((answer) => answer.json.data.orderNo)).size).toBe(1);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE merchant_order_no = ${fields.merchantOrderNo}`);
    expect(rows[0]!.count).toBe(1);
  });
});

describe('submit, YHT upstream failures (1011, nothing half-created)', () => {
  it('answers 1011 when the upstream is unreachable', async () => {
    const closed = await fakeUpstream(() => 'hang-up');
    await closed.close(); // nothing listens on that port any more
    const before = await counts();
    const { json } = await withUpstream(closed.url, () => submit());
    expect(json).toEqual({ code: 1011, message: 'YHT upstream is unreachable', data: null });
    expect(await counts()).toEqual(before);
  });

  it('answers 1011 when the upstream refuses (signed), answers unsigned, or with a forged signature', async () => {
    const signed = (fields: Record<string, string>) => ({ ...fields, sign: yhtSignature(fields, YHT_SANDBOX_KEY) });
    const answers = [
      { status: 200, body: JSON.stringify(signed({ code: 'RISK_REJECTED', msg: 'merchant limit reached' })) },
      { status: 200, body: JSON.stringify({ code: 'RISK_REJECTED', msg: 'merchant limit reached' }) },
      { status: 502, body: 'bad gateway' },
      { status: 200, body: 'not json' },
      { status: 200, body: JSON.stringify({ code: 'SUCCESS', msg: 'ok', tradeNo: 'T1', cashierUrl: 'https://evil.example/' }) },
    ];
    const messages: string[] = [];
    for (const answer of answers) {
      const upstream = await fakeUpstream(() => answer);
      const before = await counts();
      const { json } = await withUpstream(upstream.url, () => submit());
      await upstream.close();
      expect(json.code).toBe(1011);
      expect(await counts()).toEqual(before);
      messages.push(json.message);
    }
    expect(messages).toEqual([
      'YHT upstream refused the order: RISK_REJECTED merchant limit reached',
      'YHT upstream answer has no valid signature (code RISK_REJECTED)',
      'YHT upstream answered HTTP 502',
      'YHT upstream answer is not JSON',
      'YHT upstream answer has no valid signature (code SUCCESS)',
    ]);
  });

  it('answers 1011 when a signed answer is for another amount', async () => {
    const upstream = await fakeUpstream((body) => {
      const form = Object.fromEntries(new URLSearchParams(body));
      const fields = { code: 'SUCCESS', msg: 'ok', mchNo: form.mchNo!, outTradeNo: form.outTradeNo!, tradeNo: 'T2', amount: '0.01', payMethod: form.payMethod!, cashierUrl: 'https://cashier.example/T2' };
      return { status: 200, body: JSON.stringify({ ...fields, sign: yhtSignature(fields, YHT_SANDBOX_KEY) }) };
    });
    const before = await counts();
    const { json } = await withUpstream(upstream.url, () => submit());
    await upstream.close();
    expect(json).toEqual({ code: 1011, message: 'YHT upstream answered another amount', data: null });
    expect(await counts()).toEqual(before);
  });

  it('refuses with 1011 in production while the channel has only the sandbox credentials', async () => {
    const env = process.env as Record<string, string | undefined>;
    const previous = env.NODE_ENV;
    env.NODE_ENV = 'production';
    try {
      const before = await counts();
      const attempt = createDirectOrder(getDb(), merchant.id, yhtAdapter, { merchantOrderNo: `PROD-${Date.now()}`, payMethod: 'aliPay', amountMinor: 100n, notifyUrl: 'https://merchant.example/n' }, { clientIp: '203.0.113.9' });
      await expect(attempt).rejects.toEqual(new DomainError('upstream_failure', { message: 'YHT channel is not available' }));
      expect(await counts()).toEqual(before);
    } finally {
      env.NODE_ENV = previous;
    }
  });
});
