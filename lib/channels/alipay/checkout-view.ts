import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders } from '../../db/schema';
import { pagePayUrl, type AlipayPayMethod } from './client';
import { alipayConfig, AlipayNotConfigured } from './config';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { formatMinorUnits } from '../../money/decimal-amount';
import { directStatus } from '../../orders/direct-view';
import { payUrlFor } from '../../orders/identifiers';
import { renderableUrl } from '../../validation/standard-url';

export interface AlipayCheckout {
  orderNo: string;
  amount: string;
  payMethod: AlipayPayMethod;
  status: 'pending' | 'paid' | 'expired';
  secondsLeft: number;
  productName: string | null;
  redirectUrl: string | null;
  /**
   * While payable: the signed alipay.trade.page.pay / wap.pay URL the payer's browser is sent to. Undefined when the
   * order cannot be paid (any more), or the channel or its credential is unavailable (`unavailable` says so).
   */
  gatewayUrl: string | undefined;
  unavailable: boolean;
}

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * What the payer's ALIPAY checkout shows, by the payUrl token. The state is the one stored here; the gateway URL is
 * built afresh with the order's bound credential, expiring with the order (time_expire), returning to this page;
 * `gatewayUrl: false` skips it (the status poll needs the state only).
 */
export async function findAlipayCheckout(
  db: Database,
  payToken: string,
  now = new Date(),
  options: { gatewayUrl?: boolean } = {},
): Promise<AlipayCheckout | undefined> {
  if (!TOKEN.test(payToken)) return undefined;
  const [order] = await db.select().from(orders).where(eq(orders.payToken, payToken)).limit(1);
  if (!order || order.channel !== 'ALIPAY') return undefined;
  const status = directStatus(order, now);
  const payMethod = order.payMethod === 'wap' ? 'wap' : 'web';
  let gatewayUrl: string | undefined;
  let unavailable = false;
  if (status === 1 && options.gatewayUrl !== false) {
    const credential = await findBoundCredential(db, order);
    try {
      if (credential) {
        gatewayUrl = pagePayUrl(alipayConfig(), credential, {
          payMethod,
          outTradeNo: order.orderNo,
          amountMinor: order.payAmountMinor,
          subject: order.productName ?? 'Payment',
          body: order.productDesc ?? undefined,
          expiresAt: order.expiresAt,
          returnUrl: payUrlFor(order.payToken),
          signedAt: now,
        });
      }
    } catch (error) {
      if (!(error instanceof AlipayNotConfigured)) throw error;
    }
    unavailable = gatewayUrl === undefined;
  }
  return {
    orderNo: order.orderNo,
    amount: formatMinorUnits(order.payAmountMinor),
    payMethod,
    status: status === 2 ? 'paid' : status === 3 ? 'expired' : 'pending',
    secondsLeft: Math.max(0, Math.floor((order.expiresAt.getTime() - now.getTime()) / 1000)),
    productName: order.productName,
    // Re-read as a link: an order stored before the standard-form rule may hold `https:\\evil.example`.
    redirectUrl: renderableUrl(order.redirectUrl),
    gatewayUrl,
    unavailable,
  };
}
