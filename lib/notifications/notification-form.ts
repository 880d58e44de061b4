import type { OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { sign } from '../signing';

/**
 * The payment-success form (spec "Events"; design: every channel uses the ALIPAY format with its own
 * order-number and amount fields). Signed with the merchant's AppSecret by the API's own signing module.
 */
export type NotifiableOrder = Pick<OrderRow, 'orderNo' | 'merchantOrderNo' | 'channel' | 'payAmountMinor' | 'paidAt' | 'updatedAt' | 'tradeNo' | 'attach'>;

export function notificationForm(order: NotifiableOrder, appId: string, appSecret: string): Record<string, string> {
  const amount = formatMinorUnits(order.payAmountMinor);
  const channelFields: Record<string, string> =
    order.channel === 'USDT'
      ? { orderNo: order.orderNo, pay_usdt: amount }
      : order.channel === 'YHT'
        ? { orderNo: order.orderNo, payMoney: amount }
        : { platformOrderNo: order.orderNo, amount };
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
