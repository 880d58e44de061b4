import { EXAMPLE_MERCHANT_ORDER_NO, type ExampleFields } from '../../contract/examples';

export function usdtSubmitExample(appId: string): ExampleFields {
  return {
    appId,
    merchantOrderNo: EXAMPLE_MERCHANT_ORDER_NO,
    payType: 'USDT',
    chainType: '1',
    pay_usdt: '10.50',
    productName: 'VIP',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
  };
}

/** The query of the USDT submit example's order (`payType` absent: a USDT query). */
export function usdtQueryExample(appId: string): ExampleFields {
  return { appId, merchantOrderNo: EXAMPLE_MERCHANT_ORDER_NO };
}

/** The notification of the USDT submit example once paid, as the service POSTs it (form fields). */
export function usdtNotificationExample(appId: string): ExampleFields {
  return {
    appId,
    orderNo: 'U20260101000000000001',
    merchantOrderNo: EXAMPLE_MERCHANT_ORDER_NO,
    payType: 'USDT',
    pay_usdt: '10.50',
    status: 'PAID',
    payTime: '1767225600',
    tradeNo: '6f1c0a5b0d0e4c1f9a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f',
    attach: 'user=42',
  };
}
