import type { UsableCredential } from '../../credentials/find-usable-credential';
import type { UpstreamOrderRow } from '../../db/schema';
import { payUrlFor } from '../../orders/identifiers';
import { DirectUpstreamError, type DirectChannelAdapter, type DirectPaymentRequest, type StartedDirectPayment } from '../direct/direct-channel';
import { wechatAccountOf } from './account';
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

function configOrRefuse(): WechatConfig {
  try {
    return wechatConfig();
  } catch (error) {
    if (error instanceof WechatNotConfigured) throw new DirectUpstreamError('WECHAT channel is not available');
    throw error;
  }
}

/**
 * Starts the WeChat side of a new order before anything is stored: native answers a `code_url` (shown as a QR on
 * the service's checkout page), h5 an `h5_url` (the payer's browser goes there). Refusals, a bad answer signature,
 * a timeout or an unreachable WeChat are DirectUpstreamErrors (the open API answers 1011, nothing is written).
 */
export async function startWechatPayment(
  credential: UsableCredential,
  request: DirectPaymentRequest,
  config: WechatConfig = configOrRefuse(),
): Promise<StartedDirectPayment> {
  const account = wechatAccountOf(credential);
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
    return { upstreamOrderNo: request.orderNo, cashierUrl: h5UrlWithRedirect(h5Url, request.checkoutUrl) };
  }
  throw new DirectUpstreamError(`WECHAT payMethod ${request.payMethod} is not supported (native or h5)`);
}

export const wechatChannelAdapter: DirectChannelAdapter = {
  channel: 'WECHAT',
  startPayment: (credential, request) => startWechatPayment(credential, request),
  payUrlOf(order: { payMethod: string | null; payToken: string }, upstream: UpstreamOrderRow | undefined): string {
    if (order.payMethod === 'h5' && upstream) return upstream.cashierUrl;
    return payUrlFor(order.payToken);
  },
};
