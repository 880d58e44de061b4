import { formatMinorUnits } from '../../money/decimal-amount';
import type { QueriedOrder } from '../../orders/find-order';
import { payUrlFor, qrCodeUrlFor } from '../../orders/identifiers';
import { textWireStatus } from '../../orders/order-status';

/** YHT's wire status: '0' pending, '1' paid, '2' closed (a pending order past its window reads '2'). */
export const yhtStatus = textWireStatus;

export function yhtCreateData(order: QueriedOrder, now = new Date()) {
  return {
    orderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    payUrl: payUrlFor(order.payToken),
    qrCodeUrl: qrCodeUrlFor(order.payToken),
    payMethod: order.payMethod,
    status: yhtStatus(order, now),
  };
}

export function yhtQueryData(order: QueriedOrder, now = new Date()) {
  return { ...yhtCreateData(order, now), payMoney: formatMinorUnits(order.payAmountMinor) };
}
