import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/domain-error';
import { errorEnvelope } from './error-codes';
import { parseDirectSubmit } from '../channels/direct/direct-request';
import { alipayPayMethod } from '../channels/alipay/channel';
import { wechatPayMethod } from '../channels/wechat/channel';
import { parseYhtSubmit } from '../channels/yht/yht-request';

const base = { merchantOrderNo: 'M-1', amount: '9.90', notifyUrl: 'https://m.example/n' };

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return errorEnvelope(error)!;
    throw error;
  }
  throw new Error('accepted');
}

describe('parseDirectSubmit, WECHAT', () => {
  it.each(['native', 'h5'])('accepts payMethod %s', (payMethod) => {
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod })).toMatchObject({ payMethod, amountMinor: 990n, productName: 'Payment' });
  });

  it.each([
    [undefined, 'payMethod is required'],
    ['jsapi', 'payMethod must be native or h5'],
    ['web', 'payMethod must be native or h5'],
    ['H5', 'payMethod must be native or h5'],
  ])('payMethod %s is 1003 naming payMethod', (payMethod, message) => {
    expect(refusal(() => parseDirectSubmit(wechatPayMethod, { ...base, payMethod }))).toEqual({ code: 1003, message, data: null });
  });

  it('credentialId: a positive integer or 1001; payMoney only when amount is absent; returnUrl as redirectUrl', () => {
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'h5', credentialId: '42' }).credentialId).toBe(42);
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'h5' }).credentialId).toBeUndefined();
    expect(refusal(() => parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'h5', credentialId: '0' }))).toEqual({ code: 1001, message: 'credentialId invalid', data: null });
    expect(parseDirectSubmit(wechatPayMethod, { ...base, amount: undefined, payMoney: '1.5', payMethod: 'h5' }).amountMinor).toBe(150n);
    expect(refusal(() => parseDirectSubmit(wechatPayMethod, { ...base, amount: '1.555', payMoney: '1.5', payMethod: 'h5' })).message).toMatch(/^amount must be/);
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'native', returnUrl: 'https://m.example/r' }).redirectUrl).toBe('https://m.example/r');
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'native', redirectUrl: 'https://m.example/a', returnUrl: 'https://m.example/b' }).redirectUrl).toBe(
      'https://m.example/a',
    );
  });
});

describe('parseDirectSubmit, ALIPAY', () => {
  it('takes the fields as sent, with productDesc and attach', () => {
    expect(parseDirectSubmit(alipayPayMethod, { ...base, payMethod: 'wap', productName: 'Tea', productDesc: 'Green', attach: 'a=1' })).toEqual({
      merchantOrderNo: 'M-1',
      payMethod: 'wap',
      amountMinor: 990n,
      credentialId: undefined,
      notifyUrl: 'https://m.example/n',
      redirectUrl: undefined,
      productName: 'Tea',
      productDesc: 'Green',
      attach: 'a=1',
    });
  });

  it('checks credentialId before payMethod and payMethod before amount', () => {
    expect(refusal(() => parseDirectSubmit(alipayPayMethod, { ...base, credentialId: 'x', payMethod: 'x', amount: 'x' })).message).toBe('credentialId invalid');
    expect(refusal(() => parseDirectSubmit(alipayPayMethod, { ...base, payMethod: 'x', amount: 'x' })).message).toBe('payMethod must be wap or web');
  });
});

describe('clientIp, on every fiat channel', () => {
  const yht = { merchantOrderNo: 'M-1', channel: 'YHT', payMethod: 'wxH5', payMoney: '9.90', notifyUrl: 'https://m.example/n' };

  it.each(['198.51.100.7', '2001:db8::1', '::ffff:198.51.100.7'])('accepts %s for ALIPAY, WECHAT and YHT', (clientIp) => {
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'h5', clientIp }).clientIp).toBe(clientIp);
    expect(parseDirectSubmit(alipayPayMethod, { ...base, payMethod: 'wap', clientIp }).clientIp).toBe(clientIp);
    expect(() => parseYhtSubmit({ ...yht, clientIp })).not.toThrow();
  });

  it.each(['256.1.1.1', '1.2.3', 'example.com', '198.51.100.7:80', 'fe80::1%eth0', '2001:db8::1::2'])('%s is 1003 naming clientIp', (clientIp) => {
    const refused = { code: 1003, message: 'clientIp must be an IPv4 or IPv6 address', data: null };
    expect(refusal(() => parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'h5', clientIp }))).toEqual(refused);
    expect(refusal(() => parseDirectSubmit(alipayPayMethod, { ...base, payMethod: 'web', clientIp }))).toEqual(refused);
    expect(refusal(() => parseYhtSubmit({ ...yht, clientIp }))).toEqual(refused);
  });

  it('is optional', () => {
    expect(parseDirectSubmit(wechatPayMethod, { ...base, payMethod: 'h5' }).clientIp).toBeUndefined();
  });
});
