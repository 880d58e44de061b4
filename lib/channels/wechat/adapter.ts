import { upstreamFailure } from '../../errors/domain-error';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import type { OrderRow, UpstreamOrderRow } from '../../db/schema';
import { orderTtlMinutes, payUrlFor } from '../../orders/identifiers';
import { type DirectChannelAdapter, type DirectPaymentRequest, type StartedDirectPayment } from '../../orders/direct-channel-adapter';
import { getDb } from '../../db/client';
import { wechatAccountFor } from './platform-certificates';
import { createH5Prepay, createNativePrepay, rfc3339Beijing, type WechatPrepayInput } from './client';
import { wechatConfig, WechatNotConfigured, type WechatConfig } from './config';

export const WECHAT_PAY_METHODS = ['native', 'h5'] as const;
export const DESCRIPTION_MAX_CHARACTERS = 127;

/** WeChat limits `description` to 127 characters; longer product names are cut (by code point, never mid-character). */
export function wechatDescription(subject: string): string {
  const characters = Array.from(subject.trim() || 'Payment');
  return characters.slice(0, DESCRIPTION_MAX_CHARACTERS).join('');
}

/** Marks the checkout visit that comes back from WeChat's h5 cashier (the page then waits instead of sending the payer back). */
export const H5_RETURN_PARAM = 'wxreturn';

/**
 * h5_url plus `redirect_url`, which WeChat lets merchants append: the payer comes back to our checkout (marked as a
 * return) after paying or cancelling; the checkout shows the state we hold, never the browser's word.
 */
export function h5UrlWithRedirect(h5Url: string, checkoutUrl: string): string {
  const back = `${checkoutUrl}${checkoutUrl.includes('?') ? '&' : '?'}${H5_RETURN_PARAM}=1`;
  return `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(back)}`;
}

/** The channel's settings, or upstream_failure saying only that WECHAT is not available. */
export function configOrRefuse(): WechatConfig {
  try {
    return wechatConfig();
  } catch (error) {
    if (error instanceof WechatNotConfigured) throw upstreamFailure('WECHAT channel is not available');
    throw error;
  }
}

/**
 * Starts the WeChat side of a new order before anything is stored: native answers a `code_url` (shown as a QR on
 * the service's checkout page), h5 an `h5_url` (the payer's browser goes there). Refusals, a bad answer signature,
 * a timeout or an unreachable WeChat are upstream_failure DomainErrors (the open API answers 1011, nothing is written).
 */
export async function startWechatPayment(
  credential: UsableCredential,
  request: DirectPaymentRequest,
  config: WechatConfig = configOrRefuse(),
): Promise<StartedDirectPayment> {
  const account = await wechatAccountFor(getDb(), credential, config);
  const input: WechatPrepayInput = {
    outTradeNo: request.orderNo,
    description: wechatDescription(request.subject),
    amountMinor: request.amountMinor,
    timeExpire: rfc3339Beijing(request.expiresAt),
    notifyUrl: config.notifyUrl,
  };
  if (request.payMethod === 'native') {
    const codeUrl = await createNativePrepay(config, account, input);
    return { upstreamOrderNo: request.orderNo, cashierUrl: codeUrl, qrContent: codeUrl };
  }
  if (request.payMethod === 'h5') {
    const h5Url = await createH5Prepay(config, account, { ...input, payerClientIp: request.clientIp });
    return { upstreamOrderNo: request.orderNo, cashierUrl: h5UrlWithRedirect(h5Url, request.checkoutUrl), payerClientIp: request.clientIp };
  }
  throw upstreamFailure(`WECHAT payMethod ${request.payMethod} is not supported (native or h5)`);
}

/** WeChat's h5_url lives 5 minutes. */
export const H5_URL_LIFETIME_MS = 5 * 60_000;
/** A link with less than this left is renewed too: the payer needs time to open it. */
const H5_URL_RENEWAL_MARGIN_MS = 60_000;

/**
 * A fresh h5_url for a pending h5 order whose link has lapsed or is about to: WeChat's documented way is the same H5
 * order call again, with exactly the first call's parameters (a differing one is refused as a reused out_trade_no).
 * Native code_urls last as long as the order; they are never renewed.
 */
export async function renewWechatH5Url(
  credential: UsableCredential,
  order: OrderRow,
  upstream: UpstreamOrderRow,
  now: Date,
  config: WechatConfig = configOrRefuse(),
): Promise<{ cashierUrl: string } | undefined> {
  if (order.payMethod !== 'h5' || !upstream.payerClientIp) return undefined;
  const issuedAt = upstream.cashierIssuedAt ?? upstream.createdAt;
  if (now.getTime() - issuedAt.getTime() < H5_URL_LIFETIME_MS - H5_URL_RENEWAL_MARGIN_MS) return undefined;
  const h5Url = await createH5Prepay(config, await wechatAccountFor(getDb(), credential, config, now), {
    outTradeNo: upstream.upstreamOrderNo,
    description: wechatDescription(order.productName ?? ''),
    amountMinor: order.payAmountMinor,
    timeExpire: rfc3339Beijing(order.expiresAt),
    notifyUrl: config.notifyUrl,
    payerClientIp: upstream.payerClientIp,
  });
  return { cashierUrl: h5UrlWithRedirect(h5Url, payUrlFor(order.payToken)) };
}

export const wechatChannelAdapter: DirectChannelAdapter = {
  channel: 'WECHAT',
  orderNoPrefix: 'W',
  credentials: 'merchant',
  amountField: 'amount',
  payWindowMinutes: orderTtlMinutes,
  firstUpstreamCheck: () => null,
  startPayment: (credential, request) => startWechatPayment(credential!, request),
  renewCashier: (credential, order, upstream, now) => renewWechatH5Url(credential, order, upstream, now),
  payUrlOf(order: { payMethod: string | null; payToken: string }, upstream: UpstreamOrderRow | undefined): string {
    if (order.payMethod === 'h5' && upstream) return upstream.cashierUrl;
    return payUrlFor(order.payToken);
  },
};
