import type { ExampleFields } from '../../contract/examples';

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

/** The query of the WECHAT submit example's order. */
export function wechatQueryExample(appId: string): ExampleFields {
  return { appId, merchantOrderNo: 'ORDER-20260101-0004', payType: 'WECHAT' };
}

/** The notification of the WECHAT submit example once paid. */
export function wechatNotificationExample(appId: string): ExampleFields {
  return {
    appId,
    platformOrderNo: 'W20260101000000000004',
    merchantOrderNo: 'ORDER-20260101-0004',
    payType: 'WECHAT',
    amount: '88.50',
    status: 'PAID',
    payTime: '1767225600',
    tradeNo: '4200002026010100000000000001',
    attach: '',
  };
}
