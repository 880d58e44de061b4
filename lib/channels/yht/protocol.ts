/** The YHT aggregator's protocol as this service speaks it (docs/channels/yht.md). */

export const YHT_PAY_METHODS = ['wxH5', 'wxPub', 'wxLite', 'aliPay', 'unionPay', 'bankCard', 'bankFast'] as const;
export type YhtPayMethod = (typeof YHT_PAY_METHODS)[number];

export function isYhtPayMethod(value: string): value is YhtPayMethod {
  return (YHT_PAY_METHODS as readonly string[]).includes(value);
}

export const YHT_CREATE_PATH = '/api/pay/create';
export const YHT_QUERY_PATH = '/api/pay/query';

/** `code` of a successful answer; anything else is a refusal (SIGN_ERROR, PARAM_ERROR, ORDER_NOT_EXIST …). */
export const YHT_OK = 'SUCCESS';
export const YHT_ORDER_NOT_EXIST = 'ORDER_NOT_EXIST';

/** Upstream order states (query `status`; a callback is sent for SUCCESS only). */
export type YhtTradeStatus = 'WAITING' | 'SUCCESS' | 'CLOSED';

/** The body that acknowledges a callback; anything else makes the upstream send it again. */
export const YHT_CALLBACK_ACK = 'success';
export const YHT_CALLBACK_NACK = 'fail';
