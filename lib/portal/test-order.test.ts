import { describe, expect, it } from 'vitest';
import { channelOf } from '../channels';
import { alipayPayMethod } from '../channels/alipay/channel';
import { parseUsdtSubmit } from '../channels/usdt/usdt-request';
import { wechatPayMethod } from '../channels/wechat/channel';
import { parseYhtSubmit } from '../channels/yht/yht-request';
import { parseDirectSubmit } from '../channels/direct/direct-request';
import { TEST_ORDER_METHODS, testOrderFields } from './test-order';

const base = { amount: '12.34', notifyUrl: 'https://merchant.example/notify' };

describe('test order fields', () => {
  it('are what the open API accepts for every channel and method', () => {
    const usdt = testOrderFields({ ...base, channel: 'USDT', payMethod: 'TRC20' }, 'TEST-1');
    expect(channelOf(usdt).name).toBe('USDT');
    expect(parseUsdtSubmit(usdt)).toMatchObject({ merchantOrderNo: 'TEST-1', notifyUrl: base.notifyUrl });
    // Every network by its chain's name: a BEP20 test order is submitted with BEP20's chainType.
    expect(TEST_ORDER_METHODS.USDT).toContain('TRC20');
    expect(testOrderFields({ ...base, channel: 'USDT', payMethod: 'BEP20' }, 'TEST-1')).toMatchObject({ chainType: '3', pay_usdt: '12.34' });
    expect(testOrderFields({ ...base, channel: 'USDT', payMethod: 'POLYGON' }, 'TEST-1')).toMatchObject({ chainType: '4' });
    for (const payMethod of TEST_ORDER_METHODS.YHT) {
      const yht = testOrderFields({ ...base, channel: 'YHT', payMethod }, 'TEST-2');
      expect(channelOf(yht).name).toBe('YHT');
      expect(parseYhtSubmit(yht)).toMatchObject({ payMethod, amountMinor: 1234n });
    }
    for (const channel of ['ALIPAY', 'WECHAT'] as const) {
      for (const payMethod of TEST_ORDER_METHODS[channel]) {
        const direct = testOrderFields({ ...base, channel, payMethod }, 'TEST-3');
        expect(channelOf(direct).name).toBe(channel);
        expect(parseDirectSubmit(channel === 'ALIPAY' ? alipayPayMethod : wechatPayMethod, direct)).toMatchObject({ payMethod, amountMinor: 1234n, notifyUrl: base.notifyUrl });
      }
    }
  });

  it('leave a bad amount to the open API to refuse, naming the field', () => {
    expect(() => parseUsdtSubmit(testOrderFields({ ...base, amount: '1.234', channel: 'USDT', payMethod: 'TRC20' }, 'TEST-4'))).toThrow(/pay_usdt/);
  });
});
