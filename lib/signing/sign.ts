import { hash, timingSafeEqual } from 'node:crypto';

/** Field values as the signer sees them: raw text; `undefined`, `null` and "" are empty and left out. */
export type SignableFields = Readonly<Record<string, string | null | undefined>>;

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;

/**
 * Names in the order of their UTF-8 bytes (case-sensitive). Below the surrogates UTF-16 code units sort as UTF-8 does,
 * so names are compared in place; only where they first differ on a surrogate (rare: names beyond the BMP, or broken
 * ones) are they encoded, as every comparison once was (two buffers per comparison, for each request's sort).
 */
function byUtf8Bytes(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let index = 0; index < shorter; index += 1) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    if (isSurrogate(left) || isSurrogate(right)) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    return left - right;
  }
  return a.length - b.length;
}

/** The text that is hashed: non-empty fields but `signature`, sorted by name (case-sensitive bytes), then the secret. */
export function signingText(fields: SignableFields, appSecret: string): string {
  const names: string[] = [];
  for (const name of Object.keys(fields)) {
    if (name === 'signature') continue;
    const value = fields[name];
    if (value !== undefined && value !== null && value !== '') names.push(name);
  }
  names.sort(byUtf8Bytes);
  let text = '';
  for (const name of names) text += `${name}=${fields[name]}&`;
  return `${text}appsecret=${appSecret}`;
}

export function sign(fields: SignableFields, appSecret: string): string {
  // The one-shot hash (UTF-8 of the text): no Hash object per request.
  return hash('md5', signingText(fields, appSecret), 'hex').toUpperCase();
}

/** Case-insensitive on the hex digest, constant-time. */
export function verifySignature(fields: SignableFields, appSecret: string, signature: string): boolean {
  const expected = Buffer.from(sign(fields, appSecret), 'utf8');
  const given = Buffer.from(signature.toUpperCase(), 'utf8');
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}
