import type { Database } from '@/lib/db/client';
import { sandboxWechatKeysOf } from '@/lib/channels/wechat/sandbox-keys';
import type { SandboxWechatKeysRow } from '@/lib/channels/wechat/schema';
import { answerSigner, defaultSigner, type PlatformSigner } from './signer';
import { merchantSignatureValid, newPayId, parseAuthorization, platformSignatureHeaders } from './protocol';

/**
 * What every call of the simulated WeChat Pay API v3 shares: the merchant's Authorization header checked (else 401
 * SIGN_ERROR), the `Wechatpay-Serial` the merchant's mode asks for (else 400 INVALID_REQUEST), and every answer signed.
 */

const MAX_BODY = 64 * 1024;

export function signedResponse(signer: PlatformSigner, status: number, body: unknown, now = new Date()): Response {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = {
    ...platformSignatureHeaders(text, signer, now),
    'Request-ID': newPayId(),
  };
  if (text !== '') headers['content-type'] = 'application/json; charset=utf-8';
  return new Response(text === '' ? null : text, { status, headers });
}

export function refuse(signer: PlatformSigner, status: number, code: string, message: string): Response {
  return signedResponse(signer, status, { code, message });
}

interface Authenticated {
  keys: SandboxWechatKeysRow;
  /** Signs this request's answer. */
  signer: PlatformSigner;
  body: string;
}

/** The URL as WeChat signs it: the path from `/v3/` on, with the query, exactly as sent. */
function canonicalUrl(request: Request): string {
  const url = new URL(request.url);
  const at = url.pathname.indexOf('/v3/');
  return `${at >= 0 ? url.pathname.slice(at) : url.pathname}${url.search}`;
}

export async function authenticate(request: Request, db: Database, now: Date, options: { serialOptional?: boolean } = {}): Promise<Authenticated | Response> {
  const keys = await sandboxWechatKeysOf(db);
  const early = defaultSigner(keys);
  const body = request.method === 'GET' ? '' : await request.text();
  if (body.length > MAX_BODY) return refuse(early, 400, 'PARAM_ERROR', 'body is too large');
  const auth = parseAuthorization(request.headers.get('authorization'));
  if (!auth) return refuse(early, 401, 'SIGN_ERROR', 'Authorization header is missing or not WECHATPAY2-SHA256-RSA2048 with mchid, nonce_str, signature, timestamp, serial_no');
  if (auth.mchid !== keys.mchId) return refuse(early, 401, 'SIGN_ERROR', `mchid ${auth.mchid} is not a sandbox merchant`);
  if (auth.serial_no.toUpperCase() !== keys.merchantCertSerial) return refuse(early, 401, 'SIGN_ERROR', 'serial_no is not the merchant API certificate serial');
  if (!/^\d+$/.test(auth.timestamp) || Math.abs(Number(auth.timestamp) - now.getTime() / 1000) > 300) return refuse(early, 401, 'SIGN_ERROR', 'timestamp is more than 5 minutes off');
  if (!merchantSignatureValid(auth, request.method, canonicalUrl(request), body, keys.merchantPublicKey)) return refuse(early, 401, 'SIGN_ERROR', 'signature does not verify');
  const signer = answerSigner(keys, request.headers.get('wechatpay-serial'), options);
  if ('refusal' in signer) return refuse(early, 400, 'INVALID_REQUEST', signer.refusal);
  return { keys, signer, body };
}

