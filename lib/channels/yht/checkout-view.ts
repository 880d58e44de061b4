import type { Database } from '../../db/client';
import { formatMinorUnits } from '../../money/decimal-amount';
import { findOrderWithUpstream } from '../../orders/find-order';
import { checkoutState } from '../../orders/order-status';
import { renderableUrl } from '../../validation/standard-url';

export interface YhtCheckout {
  orderNo: string;
  payMoney: string;
  payMethod: string;
  status: 'pending' | 'paid' | 'expired';
  expiresAt: Date;
  secondsLeft: number;
  productName: string | null;
  redirectUrl: string | null;
  /** The upstream cashier, for the payer to continue there (only while the order can be paid). */
  cashierUrl: string | undefined;
  hasQr: boolean;
}

/** What the payer's YHT checkout shows, by the payUrl token; the state is always the one stored here. */
export async function findYhtCheckout(db: Database, payToken: string, now = new Date()): Promise<YhtCheckout | undefined> {
  const row = await findOrderWithUpstream(db, payToken);
  if (!row || row.order.channel !== 'YHT') return undefined;
  const status = checkoutState(row.order, now);
  const payable = status === 'pending';
  return {
    orderNo: row.order.orderNo,
    payMoney: formatMinorUnits(row.order.payAmountMinor),
    payMethod: row.order.payMethod ?? '',
    status,
    expiresAt: row.order.expiresAt,
    secondsLeft: Math.max(0, Math.floor((row.order.expiresAt.getTime() - now.getTime()) / 1000)),
    productName: row.order.productName,
    // Re-read as a link: an order stored before the standard-form rule may hold `https:\\evil.example`.
    redirectUrl: renderableUrl(row.order.redirectUrl),
    cashierUrl: payable ? row.upstream.cashierUrl : undefined,
    hasQr: payable && !!row.upstream.qrContent,
  };
}
