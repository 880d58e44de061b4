import { createHash, timingSafeEqual } from 'node:crypto';

/** A YHT message: flat text fields. `sign` and empty values are left out of the signature. */
export type YhtFields = Readonly<Record<string, string | undefined>>;

function byAsciiName(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** `k=v` pairs of the non-empty fields but `sign`, sorted by name (bytes), joined by '&', then `&key=<key>`. */
export function yhtSigningText(fields: YhtFields, key: string): string {
  const pairs = Object.keys(fields)
    .filter((name) => name !== 'sign' && fields[name] !== undefined && fields[name] !== '')
    .sort(byAsciiName)
    .map((name) => `${name}=${fields[name]}`);
  return `${pairs.join('&')}&key=${key}`;
}

/** MD5 of the signing text (UTF-8), uppercase hex. */
export function yhtSign(fields: YhtFields, key: string): string {
  return createHash('md5').update(yhtSigningText(fields, key), 'utf8').digest('hex').toUpperCase();
}

/** Constant-time; the hex digest is compared case-insensitively. */
export function verifyYhtSign(fields: YhtFields, key: string, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(yhtSign(fields, key), 'utf8');
  const given = Buffer.from(signature.toUpperCase(), 'utf8');
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

export function signedYhtFields(fields: Record<string, string | undefined>, key: string): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== '') clean[name] = value;
  return { ...clean, sign: yhtSign(clean, key) };
}
