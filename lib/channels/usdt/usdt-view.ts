import type { OrderRow } from '../../db/schema';
import { formatMinorUnits } from '../../money/decimal-amount';
import type { QueriedOrder } from '../../orders/find-order';
import { payUrlFor } from '../../orders/identifiers';
import { textWireStatus, type TextWireStatus } from '../../orders/order-status';
import { currentDate } from '../../clock';

export type UsdtStatus = TextWireStatus;

/** The USDT wire status: '0' pending, '1' paid, '2' closed (a pending order past its window reads as closed). */
export function usdtStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = currentDate()): UsdtStatus {
  return textWireStatus(order, now);
}

export function usdtCreateData(order: Pick<OrderRow, 'orderNo' | 'merchantOrderNo' | 'payToken' | 'payAmountMinor' | 'status' | 'expiresAt'>) {
  return {
    orderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    payUrl: payUrlFor(order.payToken),
    pay_usdt: formatMinorUnits(order.payAmountMinor),
    pay_money: '0.00',
    status: usdtStatus(order),
  };
}

export function usdtQueryData(order: QueriedOrder) {
  return {
    payUrl: payUrlFor(order.payToken),
    orderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    status: usdtStatus(order),
    pay_usdt: formatMinorUnits(order.payAmountMinor),
    pay_money: '0.00',
    /** The order's chain: '1' TRC20, '2' ERC20, '3' BEP20, '4' Polygon. */
    chainType: order.chainType ?? '1',
    recovered: true,
  };
}
