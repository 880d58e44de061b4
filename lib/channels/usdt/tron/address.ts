import { createHash } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Decode(text: string): Buffer | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const leadingZeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(leadingZeros), body]);
}

function base58Encode(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

function doubleSha256(bytes: Buffer): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

/** A TRON address: base58check of 0x41 + 20 bytes, checksum the first 4 bytes of SHA256(SHA256(21 bytes)). */
export function isTronAddress(text: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return false;
  const decoded = base58Decode(text);
  if (!decoded || decoded.length !== 25 || decoded[0] !== 0x41) return false;
  const payload = decoded.subarray(0, 21);
  return doubleSha256(payload).subarray(0, 4).equals(decoded.subarray(21));
}

/** Encodes 20 account bytes as a TRON address (used by the sandbox and tests to make valid addresses). */
export function tronAddressFromAccountBytes(account: Buffer): string {
  if (account.length !== 20) throw new Error('a TRON account is 20 bytes');
  const payload = Buffer.concat([Buffer.from([0x41]), account]);
  return base58Encode(Buffer.concat([payload, doubleSha256(payload).subarray(0, 4)]));
}

/**
 * Normalises an address as TronGrid may print it: base58 (`T…`), 41-prefixed hex, or 0x-prefixed 20-byte hex.
 * Returns undefined for anything else.
 */
export function normaliseTronAddress(text: string): string | undefined {
  if (text.startsWith('T')) return isTronAddress(text) ? text : undefined;
  const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text.length === 42 && text.startsWith('41') ? text.slice(2) : undefined;
  if (!hex || !/^[0-9a-fA-F]{40}$/.test(hex)) return undefined;
  return tronAddressFromAccountBytes(Buffer.from(hex, 'hex'));
}

/** The 0x-prefixed 20-byte hex form TronGrid uses in event results. */
export function tronAddressToEventHex(address: string): string {
  const decoded = base58Decode(address);
  if (!decoded || decoded.length !== 25) throw new Error(`not a TRON address: ${address}`);
  return `0x${decoded.subarray(1, 21).toString('hex')}`;
}
