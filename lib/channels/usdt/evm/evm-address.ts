import { keccak_256 } from '@noble/hashes/sha3';
import type { Address } from 'viem';

/** An EVM receiving address that is not 0x + 40 hex digits with a valid EIP-55 checksum; names the field. */
export class InvalidEvmAddress extends Error {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super(`${field}: not an EVM address with a valid EIP-55 checksum (got ${value})`);
    this.name = 'InvalidEvmAddress';
  }
}

/**
 * EIP-55: hex digit i is upper case when nibble i of keccak256(the lower-case hex text) is 8 or more. Here rather than
 * viem's getAddress, whose module loads a large part of viem (about 0.2 s) into every process that reads the channel
 * registry, the CLIs' `--help` included.
 */
function checksummedAddress(lowerHex: string): Address {
  const hash = keccak_256(new TextEncoder().encode(lowerHex));
  let text = '0x';
  for (let index = 0; index < 40; index += 1) {
    const nibble = index % 2 === 0 ? hash[index >> 1]! >> 4 : hash[index >> 1]! & 0x0f;
    text += nibble >= 8 ? lowerHex[index]!.toUpperCase() : lowerHex[index]!;
  }
  return text as Address;
}

/**
 * An address as the operator or a form gives it: mixed case must carry a correct EIP-55 checksum (a typo in one hex
 * digit is then caught); all-lower or all-upper hex has no checksum to check and is accepted only when
 * `allowUnchecksummed` says so, or when it is the checksummed form itself. Returns the checksummed form, the one
 * stored and shown.
 */
export function parseEvmAddress(field: string, value: string, options: { allowUnchecksummed?: boolean } = {}): Address {
  const text = value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new InvalidEvmAddress(field, value);
  const body = text.slice(2);
  const singleCase = body === body.toLowerCase() || body === body.toUpperCase();
  const checksummed = checksummedAddress(body.toLowerCase());
  // An address whose checksummed form happens to be single-case (every letter's nibble says the same case) is its
  // own checksummed form: accepted as it is.
  if (checksummed !== text && !(singleCase && options.allowUnchecksummed)) throw new InvalidEvmAddress(field, value);
  if (/^0x0{40}$/.test(checksummed)) throw new InvalidEvmAddress(field, value);
  return checksummed;
}
