import { publicBaseUrl } from '@/lib/orders/identifiers';

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin the caller addressed, as an upstream names its own host in the links it answers (WeChat Pay's
 * download_url is on api.mch.weixin.qq.com, the host that was called). A route's request.url cannot say it: behind the
 * service's server Next.js builds it from its own hostname (localhost), whatever host the caller used (127.0.0.1, the
 * PUBLIC_BASE_URL's). So the Host header says where, and the scheme is PUBLIC_BASE_URL's when that is the host
 * (a TLS proxy in front), else the request's.
 */
export function addressedOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get('host')?.trim();
  if (!host || !HOST.test(host)) return url.origin;
  const configured = new URL(publicBaseUrl());
  return configured.host === host ? configured.origin : `${url.protocol}//${host}`;
}
