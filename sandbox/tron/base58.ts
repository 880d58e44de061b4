import { createHash } from 'node:crypto';

/**
 * Base58 (Bitcoin alphabet) as TRON prints addresses: "T…" is base58check of 0x41 + the 20-byte account. The sandbox
 * keeps its own codec, written from TRON's address documentation, so that it shares no code with the service it judges.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The 21 bytes (0x41 + account) of a base58 TRON address, as lower-case hex; the 4 checksum bytes are dropped. */
export function tronHexOfBase58(address: string): string {
  let value = 0n;
  for (const character of address) {
    const digit = ALPHABET.indexOf(character);
    if (digit < 0) throw new RangeError(`not base58: ${address}`);
    value = value * 58n + BigInt(digit);
  }
  const hex = value.toString(16).padStart(50, '0');
  return hex.slice(0, 42);
}

/** The base58check text of 0x41 + `account` (20 bytes): what a wallet shows. */
export function base58OfTronAccount(account: Buffer): string {
  const payload = Buffer.concat([Buffer.from([0x41]), account]);
  const checksum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  let value = BigInt(`0x${Buffer.concat([payload, checksum]).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}
