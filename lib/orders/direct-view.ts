import type { DirectChannelAdapter } from '../channels/direct/direct-channel';
import type { OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import type { CreatedDirectOrder } from './create-direct-order';
import type { QueriedOrder } from './find-order';

export type DirectStatus = 1 | 2 | 3;

/** ALIPAY/WECHAT query status: 1 pending, 2 paid, 3 closed (a pending order past its window reads as closed). */
export function directStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = new Date()): DirectStatus {
  if (order.status === 'paid') return 2;
  if (order.status === 'closed' || order.expiresAt.getTime() <= now.getTime()) return 3;
  return 1;
}

export function directCreateData(adapter: DirectChannelAdapter, { order, upstream, recovered }: CreatedDirectOrder) {
  return {
    platformOrderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    amount: formatMinorUnits(order.requestedAmountMinor),
    credentialId: order.credentialId,
    payUrl: adapter.payUrlOf(order, upstream),
    recovered,
  };
}

export function directQueryData(order: QueriedOrder, now = new Date()) {
  const status = directStatus(order, now);
  return {
    platformOrderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    amount: formatMinorUnits(order.requestedAmountMinor),
    status,
    tradeNo: status === 2 ? order.tradeNo : null,
    payTime: status === 2 && order.paidAt ? Math.floor(order.paidAt.getTime() / 1000) : null,
  };
}
