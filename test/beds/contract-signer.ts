import { createHash } from 'node:crypto';

/**
 * The contract's signature, written once for every test, e2e spec and bench, independently of lib/signing, so they
 * check the service against the contract rather than against itself: drop `signature` and empty fields, sort the
 * names (ASCII), join `k=v` with `&`, append `&appsecret=SECRET`, MD5, uppercase hex.
 */
export function contractSignature(fields: Readonly<Record<string, unknown>>, appSecret: string): string {
  const text =
    Object.keys(fields)
      .filter((key) => key !== 'signature' && fields[key] !== '' && fields[key] !== null && fields[key] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => `${key}=${String(fields[key])}`)
      .join('&') + `&appsecret=${appSecret}`;
  return createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
}

/** The fields with their contract signature added, as a merchant sends them. */
export function signed<T extends Record<string, string>>(fields: T, appSecret: string): T & { signature: string } {
  return { ...fields, signature: contractSignature(fields, appSecret) };
}
