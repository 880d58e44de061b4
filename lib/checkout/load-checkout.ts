import type { Database } from '../db/client';
import { findAlipayCheckout, type AlipayCheckout } from '../channels/alipay/checkout-view';
import { findUsdtCheckout, type UsdtCheckout } from '../channels/usdt/checkout-view';
import { findWechatCheckout, type WechatCheckout } from '../channels/wechat/checkout-view';
import { findYhtCheckout, type YhtCheckout } from '../channels/yht/checkout-view';
import { findCheckoutOrder, type CheckoutMerchant } from './checkout-merchant';

/**
 * An order that can no longer be paid answers its payUrl with the expired view for a day (the payer may still be on
 * it, or come back to check), and after that as gone (410): nothing about an old order is worth showing any more.
 */
export const GONE_AFTER_MS = 24 * 60 * 60 * 1000;

export type LoadedCheckout =
  | { kind: 'unknown' }
  | { kind: 'gone'; merchant: CheckoutMerchant; redirectUrl: string | null }
  | ({ kind: 'live'; merchant: CheckoutMerchant } & (
      | { channel: 'USDT'; view: UsdtCheckout }
      | { channel: 'YHT'; view: YhtCheckout }
      | { channel: 'WECHAT'; view: WechatCheckout }
      | { channel: 'ALIPAY'; view: AlipayCheckout }
    ));

export function isGone(order: { status: string; expiresAt: Date }, now: Date): boolean {
  return order.status !== 'paid' && order.expiresAt.getTime() + GONE_AFTER_MS <= now.getTime();
}

/** Everything a payUrl shows, by its token: which channel's view, the merchant's branding, or unknown / gone. */
export async function loadCheckout(db: Database, payToken: string, now = new Date()): Promise<LoadedCheckout> {
  const order = await findCheckoutOrder(db, payToken);
  if (!order) return { kind: 'unknown' };
  const { merchant } = order;
  if (isGone(order, now)) return { kind: 'gone', merchant, redirectUrl: order.redirectUrl };
  const live = await loadChannelView(db, order.channel, payToken, now);
  return live ? { kind: 'live', merchant, ...live } : { kind: 'unknown' };
}

async function loadChannelView(db: Database, channel: string, payToken: string, now: Date) {
  switch (channel) {
    case 'USDT': {
      const view = await findUsdtCheckout(db, payToken, now);
      return view && ({ channel, view } as const);
    }
    case 'YHT': {
      const view = await findYhtCheckout(db, payToken, now);
      return view && ({ channel, view } as const);
    }
    case 'WECHAT': {
      const view = await findWechatCheckout(db, payToken, now);
      return view && ({ channel, view } as const);
    }
    case 'ALIPAY': {
      const view = await findAlipayCheckout(db, payToken, now);
      return view && ({ channel, view } as const);
    }
    default:
      return undefined;
  }
}
