import { createHash, timingSafeEqual } from 'node:crypto';

/** Field values as the signer sees them: raw text; `undefined`, `null` and "" are empty and left out. */
export type SignableFields = Readonly<Record<string, string | null | undefined>>;

function byAsciiName(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The text that is hashed: non-empty fields but `signature`, sorted by name (case-sensitive bytes), then the secret. */
export function signingText(fields: SignableFields, appSecret: string): string {
  const pairs = Object.keys(fields)
    .filter((name) => name !== 'signature')
    .filter((name) => {
      const value = fields[name];
      return value !== undefined && value !== null && value !== '';
    })
    .sort(byAsciiName)
    .map((name) => `${name}=${fields[name]}`);
  return `${pairs.join('&')}&appsecret=${appSecret}`;
}

export function sign(fields: SignableFields, appSecret: string): string {
  return createHash('md5').update(signingText(fields, appSecret), 'utf8').digest('hex').toUpperCase();
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
