import type { ExampleFields } from '../../contract/examples';

export function yhtSubmitExample(appId: string): ExampleFields {
  return {
    appId,
    merchantOrderNo: 'ORDER-20260101-0002',
    payType: 'YHT',
    channel: 'YHT',
    payMethod: 'aliPay',
    payMoney: '88.50',
    productName: 'VIP',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
  };
}

export function yhtNotificationExample(appId: string): ExampleFields {
  return {
    appId,
    orderNo: 'Y20260101000000000002',
    merchantOrderNo: 'ORDER-20260101-0002',
    payType: 'YHT',
    payMoney: '88.50',
    status: 'PAID',
    payTime: '1767225600',
    tradeNo: 'YHT202601010000001',
    attach: 'user=42',
  };
}

/** The query of the YHT submit example's order. */
export function yhtQueryExample(appId: string): ExampleFields {
  return { appId, merchantOrderNo: 'ORDER-20260101-0002', payType: 'YHT' };
}
