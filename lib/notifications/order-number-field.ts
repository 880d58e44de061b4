/**
 * The name each channel's notices give the platform order number, as its payment notification does (its contract):
 * a close or expiry notice names the order the same way. Kept with the notices, importing nothing, so that they need
 * not load the channels; lib/channels/registry.test.ts holds each channel's payment form to it.
 */
export const ORDER_NUMBER_FIELDS: Readonly<Record<string, 'orderNo' | 'platformOrderNo'>> = {
  USDT: 'orderNo',
  ALIPAY: 'platformOrderNo',
  WECHAT: 'platformOrderNo',
  YHT: 'orderNo',
};

/** A channel added without an entry names its orders `orderNo`, as USDT and YHT do. */
export const orderNumberField = (channel: string): 'orderNo' | 'platformOrderNo' => ORDER_NUMBER_FIELDS[channel] ?? 'orderNo';
