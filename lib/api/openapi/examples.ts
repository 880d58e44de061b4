import { sign } from '../../signing';

/**
 * The documented example requests and notifications: one source for the OpenAPI document (lib/api/openapi) and the
 * portal's API reference (lib/portal/api-examples). Tests send these very requests to the service, so the
 * documentation cannot drift from what the service accepts.
 */

/** Stands in for the AppSecret in every published example; it is never a real secret. */
export const PLACEHOLDER_APP_SECRET = 'YOUR_APP_SECRET';
/** Stands in for the merchant's AppID where no merchant is known (the OpenAPI document). */
export const PLACEHOLDER_APP_ID = 'mch_YOUR_APP_ID';

export type ExampleFields = Record<string, string>;

export const EXAMPLE_MERCHANT_ORDER_NO = 'ORDER-20260101-0001';

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

export function wechatSubmitExample(appId: string): ExampleFields {
  return {
    appId,
    merchantOrderNo: 'ORDER-20260101-0004',
    payType: 'WECHAT',
    payMethod: 'native',
    amount: '88.50',
    productName: 'VIP',
    notifyUrl: 'https://merchant.example/notify',
  };
}

/** The query of the ALIPAY submit example's order. */
export function alipayQueryExample(appId: string): ExampleFields {
  return { appId, merchantOrderNo: 'ORDER-20260101-0003', payType: 'ALIPAY' };
}

/** The query of the USDT submit example's order (`payType` absent: a USDT query). */
export function queryExample(appId: string): ExampleFields {
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

/** The fields with their `signature` (by lib/signing) under the given secret. */
export function signedExample(fields: ExampleFields, appSecret = PLACEHOLDER_APP_SECRET): ExampleFields {
  return { ...fields, signature: sign(fields, appSecret) };
}
