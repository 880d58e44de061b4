import { EXAMPLE_MERCHANT_ORDER_NO, type ExampleFields } from '../contract/examples';

export const EXAMPLE_MERCHANT_REFUND_NO = 'REFUND-20260101-0001';

/** The documented refund submit: part of a paid order, with its own notifyUrl for the refund's final state. */
export function refundSubmitExample(appId: string): ExampleFields {
  return {
    appId,
    merchantOrderNo: EXAMPLE_MERCHANT_ORDER_NO,
    merchantRefundNo: EXAMPLE_MERCHANT_REFUND_NO,
    refundAmount: '10.00',
    reason: 'Returned goods',
    notifyUrl: 'https://merchant.example/refund-notify',
  };
}

/** The documented refund query of that refund. */
export function refundQueryExample(appId: string): ExampleFields {
  return { appId, merchantRefundNo: EXAMPLE_MERCHANT_REFUND_NO };
}
