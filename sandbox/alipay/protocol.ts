import { createSign, createVerify, randomBytes, randomInt } from 'node:crypto';

/**
 * Alipay OpenAPI v2 as the simulator speaks it (docs/channels/alipay.md), written from the protocol rather than
 * from the SDK, so that tests in which the SDK verifies the simulator prove the two agree.
 */

/** The signed text: every parameter but the excluded ones, empty values dropped, sorted by name, `k=v` joined by `&`, raw values. */
export function signedText(params: Record<string, string | undefined>, exclude: readonly string[]): string {
  return Object.keys(params)
    .filter((name) => !exclude.includes(name) && params[name] !== undefined && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** RSA2: SHA256withRSA (PKCS#1 v1.5), base64. */
export function rsa2Sign(text: string, privateKeyPem: string): string {
  return createSign('RSA-SHA256').update(text, 'utf8').sign(privateKeyPem, 'base64');
}

export function rsa2Verify(text: string, signature: string, publicKeyPem: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(publicKeyPem, signature, 'base64');
  } catch {
    return false;
  }
}

/** A request to the gateway is signed over every parameter but `sign` (sign_type included). */
export const REQUEST_UNSIGNED = ['sign'] as const;
/** A notification is verified over every field but `sign` and `sign_type`. */
export const NOTIFY_UNSIGNED = ['sign', 'sign_type'] as const;

export const PAGE_METHODS: Readonly<Record<string, string>> = {
  'alipay.trade.page.pay': 'FAST_INSTANT_TRADE_PAY',
  'alipay.trade.wap.pay': 'QUICK_WAP_WAY',
};

/** Alipay's amount rule: yuan with at most 2 decimals, 0.01 to 100000000. */
export function parseTotalAmount(text: unknown): bigint | undefined {
  if (typeof text !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  const minor = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return minor >= 1n && minor <= 10_000_000_000n ? minor : undefined;
}

export function formatYuan(minor: bigint): string {
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

const BEIJING_OFFSET_MS = 8 * 60 * 60_000;

export function beijingTime(at: Date): string {
  return new Date(at.getTime() + BEIJING_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

export function parseBeijing(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const at = new Date(`${text.replace(' ', 'T')}+08:00`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** Alipay trade numbers: date + 18 digits, like `2026112222001400001234567890`. */
export function newTradeNo(now: Date): string {
  const day = beijingTime(now).slice(0, 10).replace(/-/g, '');
  return `${day}2200${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
}

export function newNotifyId(): string {
  return randomBytes(16).toString('hex');
}
