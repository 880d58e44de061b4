import { createHash, randomBytes, randomInt } from 'node:crypto';
import { YHT_SANDBOX_KEY, YHT_SANDBOX_MERCHANT_NO } from '@/lib/channels/yht/config';

/**
 * The simulator's own implementation of the YHT protocol (docs/channels/yht.md), written apart from the service's
 * adapter so that each checks the other: MD5 over the sorted non-empty `k=v` pairs but `sign`, plus `&key=<key>`.
 */
export function sandboxSign(fields: Record<string, string | undefined>, key: string): string {
  const text = Object.keys(fields)
    .filter((name) => name !== 'sign' && fields[name] !== undefined && fields[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
  return createHash('md5').update(`${text}&key=${key}`, 'utf8').digest('hex').toUpperCase();
}

export function sandboxSigned(fields: Record<string, string | undefined>, key: string): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== '') clean[name] = value;
  return { ...clean, sign: sandboxSign(clean, key) };
}

/** The merchants the simulated aggregator knows: the one the service is configured with (or the sandbox default). */
export function sandboxMerchantKey(mchNo: string | undefined): string | undefined {
  const merchantNo = process.env.YHT_MERCHANT_NO?.trim() || YHT_SANDBOX_MERCHANT_NO;
  const key = process.env.YHT_KEY?.trim() || YHT_SANDBOX_KEY;
  return mchNo === merchantNo ? key : undefined;
}

export const PAY_METHODS = ['wxH5', 'wxPub', 'wxLite', 'aliPay', 'unionPay', 'bankCard', 'bankFast'];

/** Amounts on the wire: yuan with exactly two decimals. */
export function parseYuan(text: string | undefined): bigint | undefined {
  if (!text || !/^(0|[1-9]\d{0,11})\.\d{2}$/.test(text)) return undefined;
  return BigInt(text.replace('.', ''));
}

export function formatYuan(minor: bigint): string {
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

export function newTradeNo(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `YHT${stamp}${randomInt(0, 10_000_000_000).toString().padStart(10, '0')}`;
}

export function nonce(): string {
  return randomBytes(16).toString('hex');
}

export function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}
