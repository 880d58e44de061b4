import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yhtSignature } from '../../../test/yht-sandbox';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { createYhtPayment, queryYhtPayment, YhtUpstreamError } from './client';
import { YHT_SANDBOX_KEY, YHT_SANDBOX_MERCHANT_NO, yhtConfig, YhtNotConfigured } from './config';
import { verifyYhtSign, yhtSign, yhtSigningText } from './sign';

describe('YHT signature', () => {
  it('signs the sorted non-empty fields but sign, then &key=, MD5 upper-case hex', () => {
    const fields = { outTradeNo: 'Y1', amount: '10.00', mchNo: 'M1', returnUrl: '', sign: 'IGNORED', Zeta: 'z', subject: '会员' };
    expect(yhtSigningText(fields, 'k3y')).toBe('Zeta=z&amount=10.00&mchNo=M1&outTradeNo=Y1&subject=会员&key=k3y');
    expect(yhtSign(fields, 'k3y')).toBe(yhtSignature(fields, 'k3y'));
    expect(yhtSign(fields, 'k3y')).toMatch(/^[0-9A-F]{32}$/);
  });

  it('verifies case-insensitively and refuses other keys, other values and a missing sign', () => {
    const fields = { a: '1', b: '2' };
    const sign = yhtSign(fields, 'k');
    expect(verifyYhtSign(fields, 'k', sign.toLowerCase())).toBe(true);
    expect(verifyYhtSign(fields, 'other', sign)).toBe(false);
    expect(verifyYhtSign({ ...fields, b: '3' }, 'k', sign)).toBe(false);
    expect(verifyYhtSign(fields, 'k', undefined)).toBe(false);
    expect(verifyYhtSign(fields, 'k', 'short')).toBe(false);
  });
});

describe('YHT configuration', () => {
  it('defaults to the built-in sandbox outside production', () => {
    const config = yhtConfig({ NODE_ENV: 'development', PUBLIC_BASE_URL: 'http://localhost:3000' } as NodeJS.ProcessEnv);
    expect(config).toMatchObject({ merchantNo: YHT_SANDBOX_MERCHANT_NO, key: YHT_SANDBOX_KEY });
    expect(config.baseUrl).toMatch(/\/sandbox\/yht$/);
    expect(config.notifyUrl).toMatch(/\/v1\/api\/callback\/yht$/);
  });

  it('refuses the sandbox defaults in production', () => {
    const real = { YHT_BASE_URL: 'https://api.yht.example/', YHT_MERCHANT_NO: 'M100', YHT_KEY: 'real-key' };
    const production = (env: Record<string, string>) => () => yhtConfig({ NODE_ENV: 'production', ...env } as NodeJS.ProcessEnv);
    expect(production(real)()).toMatchObject({ baseUrl: 'https://api.yht.example', merchantNo: 'M100', key: 'real-key' });
    expect(production({ ...real, YHT_BASE_URL: '' })).toThrow(YhtNotConfigured);
    expect(production({ ...real, YHT_MERCHANT_NO: YHT_SANDBOX_MERCHANT_NO })).toThrow(YhtNotConfigured);
    expect(production({ YHT_BASE_URL: real.YHT_BASE_URL, YHT_MERCHANT_NO: 'M100' })).toThrow('YHT_KEY');
  });
});

describe('adapter against the sandbox', () => {
  let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
  beforeAll(async () => {
    bed = await startSandboxTestBed();
  });
  afterAll(() => bed.close());

  const input = (outTradeNo: string) => ({ outTradeNo, amountMinor: 1234n, payMethod: 'wxPub' as const, subject: 'Test', expiresAt: new Date(Date.now() + 30 * 60_000) });

  it('creates (idempotently by outTradeNo) and queries an order', async () => {
    const outTradeNo = `Y-ADAPTER-${Date.now()}`;
    const created = await createYhtPayment(yhtConfig(), input(outTradeNo));
    expect(created.tradeNo).toMatch(/^YHT\d{24}$/);
    expect(created.cashierUrl).toBe(`${bed.app.baseUrl}/sandbox/yht/cashier/${created.tradeNo}`);
    expect(created.qrContent).toBe(created.cashierUrl);
    expect(await createYhtPayment(yhtConfig(), input(outTradeNo))).toEqual(created);
    await expect(createYhtPayment(yhtConfig(), { ...input(outTradeNo), amountMinor: 1n })).rejects.toThrow('ORDER_EXISTS');
    expect(await queryYhtPayment(yhtConfig(), outTradeNo)).toEqual({ found: true, tradeNo: created.tradeNo, status: 'WAITING', amountMinor: 1234n, payTime: undefined });
    expect(await queryYhtPayment(yhtConfig(), 'Y-NEVER-CREATED')).toEqual({ found: false });
  });

  it('is refused by the sandbox with another key or merchant number; a refusal it cannot verify is not taken at its word', async () => {
    // Signed with the merchant's real key, which the caller with the wrong key cannot verify.
    await expect(createYhtPayment({ ...yhtConfig(), key: 'wrong' }, input(`Y-K-${Date.now()}`))).rejects.toThrow('YHT upstream answer has no valid signature (code SIGN_ERROR)');
    await expect(queryYhtPayment({ ...yhtConfig(), key: 'wrong' }, 'Y1')).rejects.toThrow('no valid signature (code SIGN_ERROR)');
    // An unknown merchant has no key: the refusal is unsigned.
    await expect(createYhtPayment({ ...yhtConfig(), merchantNo: 'M-UNKNOWN' }, input(`Y-M-${Date.now()}`))).rejects.toThrow('no valid signature (code MCH_NOT_EXIST)');
  });

  it('the sandbox signs its refusals to a known merchant, and the adapter reads them as refusals', async () => {
    const outTradeNo = `Y-R-${Date.now()}`;
    await createYhtPayment(yhtConfig(), input(outTradeNo));
    await expect(createYhtPayment(yhtConfig(), { ...input(outTradeNo), payMethod: 'aliPay' })).rejects.toThrow('YHT upstream refused the order: ORDER_EXISTS');
    const response = await fetch(`${bed.yhtSandboxUrl}/api/pay/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mchNo: YHT_SANDBOX_MERCHANT_NO, outTradeNo: 'Y-NONE', nonceStr: 'n0nce', sign: yhtSignature({ mchNo: YHT_SANDBOX_MERCHANT_NO, outTradeNo: 'Y-NONE', nonceStr: 'n0nce' }, YHT_SANDBOX_KEY) }),
    });
    const refusal = (await response.json()) as Record<string, string>;
    expect(refusal).toMatchObject({ code: 'ORDER_NOT_EXIST' });
    expect(refusal.sign).toBe(yhtSignature(refusal, YHT_SANDBOX_KEY));
  });

  it('sandbox refuses unsigned, malformed and expired create calls', async () => {
    const post = async (fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') => {
      const response = await fetch(`${bed.yhtSandboxUrl}/api/pay/create`, { method: 'POST', headers: { 'content-type': contentType }, body: new URLSearchParams(fields).toString() });
      return (await response.json()) as Record<string, string>;
    };
    const base = {
      mchNo: YHT_SANDBOX_MERCHANT_NO,
      outTradeNo: `Y-S-${Date.now()}`,
      amount: '1.00',
      payMethod: 'aliPay',
      subject: 's',
      notifyUrl: 'http://127.0.0.1:1/n',
      expireTime: String(Math.floor(Date.now() / 1000) + 600),
      nonceStr: 'abc',
    };
    const sign = (fields: Record<string, string>) => ({ ...fields, sign: yhtSignature(fields, YHT_SANDBOX_KEY) });
    expect((await post(base)).code).toBe('SIGN_ERROR');
    expect((await post(sign(base), 'application/json')).code).toBe('PARAM_ERROR');
    expect((await post(sign({ ...base, amount: '1.5' }))).code).toBe('PARAM_ERROR');
    expect((await post(sign({ ...base, payMethod: 'cash' }))).code).toBe('PARAM_ERROR');
    expect((await post(sign({ ...base, expireTime: String(Math.floor(Date.now() / 1000) - 1) }))).code).toBe('PARAM_ERROR');
    const ok = await post(sign(base));
    expect(ok.code).toBe('SUCCESS');
    expect(ok.sign).toBe(yhtSignature(ok, YHT_SANDBOX_KEY));
  });

  it('reports an unreachable upstream as such', async () => {
    const error = await createYhtPayment({ ...yhtConfig(), baseUrl: 'http://127.0.0.1:9' }, input('Y-U')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(YhtUpstreamError);
    expect(error).toMatchObject({ reason: 'YHT upstream is unreachable', unreachable: true });
  });
});
