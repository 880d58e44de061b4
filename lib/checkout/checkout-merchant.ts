import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchantBranding, merchants, orders } from '../db/schema';
import { renderableUrl } from '../validation/standard-url';
import { formatMinorUnits } from '../money/decimal-amount';
import type { CloseReason, OrderStatus } from '../db/schema/orders';

/** Who the payer is paying, as the checkout shows it: the merchant's chosen display name (else its name) and logo. */
export interface CheckoutMerchant {
  name: string;
  /** Same-origin path of the logo (versioned, so a changed logo is never served from a cache), or null. */
  logoPath: string | null;
}

/** The order behind a payUrl token as far as every channel's checkout shares it. */
export interface CheckoutOrder {
  channel: string;
  status: OrderStatus;
  expiresAt: Date;
  closeReason: CloseReason | null;
  /** What the payer was to pay, as the checkout writes it (`¥12.34`, `12.34 USDT`). */
  amount: string;
  redirectUrl: string | null;
  merchant: CheckoutMerchant;
}

/** An amount as the checkout writes it: yuan with the ¥ sign, USDT with its name after. */
export function checkoutAmount(currency: string, minor: bigint): string {
  return currency === 'CNY' ? `¥${formatMinorUnits(minor)}` : `${formatMinorUnits(minor)} ${currency}`;
}

export const PAY_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export function logoPathFor(payToken: string, version: number): string {
  return `/pay/${payToken}/logo?v=${version}`;
}

export async function findCheckoutOrder(db: Database, payToken: string): Promise<CheckoutOrder | undefined> {
  if (!PAY_TOKEN.test(payToken)) return undefined;
  const [row] = await db
    .select({
      channel: orders.channel,
      status: orders.status,
      expiresAt: orders.expiresAt,
      closeReason: orders.closeReason,
      currency: orders.currency,
      payAmountMinor: orders.payAmountMinor,
      redirectUrl: orders.redirectUrl,
      merchantName: merchants.name,
      displayName: merchantBranding.displayName,
      logoType: merchantBranding.logoType,
      logoVersion: merchantBranding.logoVersion,
    })
    .from(orders)
    .innerJoin(merchants, eq(merchants.id, orders.merchantId))
    .leftJoin(merchantBranding, eq(merchantBranding.merchantId, orders.merchantId))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  if (!row) return undefined;
  return {
    channel: row.channel,
    status: row.status,
    expiresAt: row.expiresAt,
    closeReason: row.closeReason,
    amount: checkoutAmount(row.currency, row.payAmountMinor),
    // Re-read as a link: an order stored before the standard-form rule may hold `https:\\evil.example`.
    redirectUrl: renderableUrl(row.redirectUrl),
    merchant: {
      name: row.displayName ?? row.merchantName,
      logoPath: row.logoType ? logoPathFor(payToken, row.logoVersion ?? 0) : null,
    },
  };
}

/** The merchant's logo behind a payUrl token: its bytes and type, or undefined when there is none. */
export async function findCheckoutLogo(db: Database, payToken: string): Promise<{ type: string; bytes: Buffer } | undefined> {
  if (!PAY_TOKEN.test(payToken)) return undefined;
  const [row] = await db
    .select({ type: merchantBranding.logoType, bytes: merchantBranding.logoBytes })
    .from(orders)
    .innerJoin(merchantBranding, eq(merchantBranding.merchantId, orders.merchantId))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  return row?.type && row.bytes ? { type: row.type, bytes: row.bytes } : undefined;
}
