import type { ExampleFields } from '../../contract/examples';

export function alipaySubmitExample(appId: string): ExampleFields {
  return {
    appId,
    merchantOrderNo: 'ORDER-20260101-0003',
    payType: 'ALIPAY',
    payMethod: 'web',
    amount: '88.50',
    productName: 'VIP',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
  };
}

/** The query of the ALIPAY submit example's order. */
export function alipayQueryExample(appId: string): ExampleFields {
  return { appId, merchantOrderNo: 'ORDER-20260101-0003', payType: 'ALIPAY' };
}

export function alipayNotificationExample(appId: string): ExampleFields {
  return {
    appId,
    platformOrderNo: 'A20260101000000000003',
    merchantOrderNo: 'ORDER-20260101-0003',
    payType: 'ALIPAY',
    amount: '88.50',
    status: 'PAID',
    payTime: '1767225600',
    tradeNo: '2026010122001400000000000001',
    attach: 'user=42',
  };
}
