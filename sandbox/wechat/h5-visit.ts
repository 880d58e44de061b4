import { isIP } from 'node:net';
import type { SandboxWechatOrder } from './store';

/**
 * What WeChat checks when a phone opens an h5_url: the link is at most 5 minutes old ("支付请求已失效，请重新发起支付";
 * a new H5 order call with the same parameters gives a fresh one), and the phone's address is the order's
 * `payer_client_ip` ("网络环境未能通过安全验证，请稍后再试").
 */

/** Tests choose the address the payer page sees with this header; only the simulator reads it. */
export const SANDBOX_PAYER_IP_HEADER = 'x-sandbox-payer-ip';

const DEFAULT_H5_URL_TTL_SECONDS = 300;

/** SANDBOX_WECHAT_H5_URL_TTL_SECONDS (default 300, WeChat's 5 minutes): tests shorten it. */
export function h5UrlTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.SANDBOX_WECHAT_H5_URL_TTL_SECONDS);
  return (Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_H5_URL_TTL_SECONDS) * 1000;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, how a dual-stack socket reports IPv4) compares as the IPv4 address. */
export function canonicalIp(address: string): string | undefined {
  const text = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped) return mapped[1];
  if (isIP(text) === 4) return text;
  if (isIP(text) === 6) return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  return undefined;
}

/** The address a payer page request comes from: the sandbox header when a test sets it, else the client address. */
export function visitorIp(headers: Headers): string {
  const chosen = headers.get(SANDBOX_PAYER_IP_HEADER)?.trim();
  if (chosen) return chosen;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  return hops.at(-1) ?? 'unknown';
}

export type H5Refusal = 'expired' | 'network';

/** Why WeChat would not let this visit pay an MWEB order, or undefined. Native orders are not checked here. */
export function h5VisitRefusal(order: SandboxWechatOrder, visit: { package?: string | null; payerIp: string }, now: Date): H5Refusal | undefined {
  if (order.tradeType !== 'MWEB') return undefined;
  const issuedAt = visit.package ? order.h5Urls[visit.package] : undefined;
  if (!issuedAt || now.getTime() - new Date(issuedAt).getTime() > h5UrlTtlMs()) return 'expired';
  const expected = order.payerClientIp ? canonicalIp(order.payerClientIp) : undefined;
  if (!expected || canonicalIp(visit.payerIp) !== expected) return 'network';
  return undefined;
}
