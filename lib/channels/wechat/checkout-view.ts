import type { Database } from '../../db/client';
import { formatMinorUnits } from '../../money/decimal-amount';
import { findOrderWithUpstream } from '../../orders/find-order';
import { checkoutState } from '../../orders/order-status';
import { renderableUrl } from '../../validation/standard-url';

export interface WechatCheckout {
  orderNo: string;
  amount: string;
  payMethod: 'native' | 'h5';
  status: 'pending' | 'paid' | 'expired';
  expiresAt: Date;
  secondsLeft: number;
  productName: string | null;
  redirectUrl: string | null;
  /** native, while payable: the code_url behind the QR image (`/qr/<token>.png`). */
  codeUrl: string | undefined;
  /** h5, while payable: where the payer's browser pays (h5_url with redirect_url back here). */
  h5Url: string | undefined;
}

/** What the payer's WECHAT checkout shows, by the payUrl token; the state is always the one stored here. */
export async function findWechatCheckout(db: Database, payToken: string, now = new Date()): Promise<WechatCheckout | undefined> {
  const row = await findOrderWithUpstream(db, payToken);
  if (!row || row.order.channel !== 'WECHAT') return undefined;
  // Same lifecycle reading as the other channels: a pending order past its window is closed for the payer.
  const status = checkoutState(row.order, now);
  const payable = status === 'pending';
  const payMethod = row.order.payMethod === 'h5' ? 'h5' : 'native';
  return {
    orderNo: row.order.orderNo,
    amount: formatMinorUnits(row.order.payAmountMinor),
    payMethod,
    status,
    expiresAt: row.order.expiresAt,
    secondsLeft: Math.max(0, Math.floor((row.order.expiresAt.getTime() - now.getTime()) / 1000)),
    productName: row.order.productName,
    // Re-read as a link: an order stored before the standard-form rule may hold `https:\\evil.example`.
    redirectUrl: renderableUrl(row.order.redirectUrl),
    codeUrl: payable && payMethod === 'native' ? (row.upstream.qrContent ?? undefined) : undefined,
    h5Url: payable && payMethod === 'h5' ? row.upstream.cashierUrl : undefined,
  };
}
