import type { DirectChannelAdapter } from './direct-channel-adapter';
import type { OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import type { CreatedDirectOrder } from './create-direct-order';
import type { QueriedOrder } from './find-order';
import { numericWireStatus, type NumericWireStatus } from './order-status';
import { currentDate } from '../clock';

export type DirectStatus = NumericWireStatus;

/** The query status of the channels paid to the merchant's own account: 1 pending, 2 paid, 3 closed (a pending order past its window reads as closed). */
export function directStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = currentDate()): DirectStatus {
  return numericWireStatus(order, now);
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

export function directQueryData(order: QueriedOrder, now = currentDate()) {
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
