import type { OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import type { QueriedOrder } from './find-order';
import { payUrlFor } from './identifiers';

export type UsdtStatus = '0' | '1' | '2';

/** Internal lifecycle to the USDT/YHT wire status; a pending order past its window reads as closed. */
export function usdtStatus(order: Pick<OrderRow, 'status' | 'expiresAt'>, now = new Date()): UsdtStatus {
  if (order.status === 'paid') return '1';
  if (order.status === 'closed' || order.expiresAt.getTime() <= now.getTime()) return '2';
  return '0';
}

export function usdtCreateData(order: OrderRow) {
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
    recovered: true,
  };
}
