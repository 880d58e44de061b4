import { createHash } from 'node:crypto';

/** The open API as the contract names it, for the bench's clients and its baseline (no code of the service). */
export const SUBMIT_PATH = '/v1/api/open/order/submit';
export const QUERY_PATH = '/v1/api/open/order/query';

/**
 * The contract's signature, written here independently of lib/signing: drop `signature` and empty fields, sort the
 * names (ASCII), join `k=v` with `&`, append `&appsecret=SECRET`, MD5, uppercase hex.
 */
export function contractSign(fields: Readonly<Record<string, string | undefined>>, appSecret: string): string {
  const text =
    Object.keys(fields)
      .filter((name) => name !== 'signature' && fields[name] !== undefined && fields[name] !== '')
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => `${name}=${fields[name]}`)
      .join('&') + `&appsecret=${appSecret}`;
  return createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
}
