import type { OrderRow } from '../db/schema';
import { sign } from '../signing';

/**
 * The payment-success form (spec "Events"; design: every channel uses one format with its own order-number and
 * amount fields, which the channel names). Signed with the merchant's AppSecret by the API's own signing module.
 */
export type NotifiableOrder = Pick<OrderRow, 'orderNo' | 'merchantOrderNo' | 'channel' | 'payAmountMinor' | 'paidAt' | 'updatedAt' | 'tradeNo' | 'attach'>;

/**
 * The order's channel's own fields of the form: its order number and amount, by the contract's names. The worker's
 * composition and the portal pass the registry's (lib/channels/index.ts notificationFieldsOf).
 */
export type ChannelNotificationFields = (order: NotifiableOrder) => Record<string, string>;

export function notificationForm(order: NotifiableOrder, channelFields: ChannelNotificationFields, appId: string, appSecret: string): Record<string, string> {
  const fields: Record<string, string> = {
    appId,
    ...channelFields(order),
    merchantOrderNo: order.merchantOrderNo,
    payType: order.channel,
    status: 'PAID',
    payTime: String(Math.floor((order.paidAt ?? order.updatedAt).getTime() / 1000)),
    tradeNo: order.tradeNo ?? '',
    attach: order.attach ?? '',
  };
  return { ...fields, signature: sign(fields, appSecret) };
}
