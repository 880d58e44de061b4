import { channelNamed } from '../channels';
import type { OrderRow } from '../db/schema';
import { sign } from '../signing';

/**
 * The payment-success form (spec "Events"; design: every channel uses one format with its own order-number and
 * amount fields, which the channel names). Signed with the merchant's AppSecret by the API's own signing module.
 */
export type NotifiableOrder = Pick<OrderRow, 'orderNo' | 'merchantOrderNo' | 'channel' | 'payAmountMinor' | 'paidAt' | 'updatedAt' | 'tradeNo' | 'attach'>;

export function notificationForm(order: NotifiableOrder, appId: string, appSecret: string): Record<string, string> {
  const channel = channelNamed(order.channel);
  if (!channel) throw new Error(`order ${order.orderNo} has no known channel (${order.channel})`);
  const channelFields = channel.notificationFields(order);
  const fields: Record<string, string> = {
    appId,
    ...channelFields,
    merchantOrderNo: order.merchantOrderNo,
    payType: order.channel,
    status: 'PAID',
    payTime: String(Math.floor((order.paidAt ?? order.updatedAt).getTime() / 1000)),
    tradeNo: order.tradeNo ?? '',
    attach: order.attach ?? '',
  };
  return { ...fields, signature: sign(fields, appSecret) };
}
