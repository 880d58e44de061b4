import type { Address } from 'viem';
import { getAddress, isAddress } from 'viem/utils'; // not the whole of viem: every process that reads the registry loads this

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
 * An address as the operator or a form gives it: mixed case must carry a correct EIP-55 checksum (a typo in one hex
 * digit is then caught); all-lower or all-upper hex has no checksum to check and is accepted only when
 * `allowUnchecksummed` says so. Returns the checksummed form, the one stored and shown.
 */
export function parseEvmAddress(field: string, value: string, options: { allowUnchecksummed?: boolean } = {}): Address {
  const text = value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new InvalidEvmAddress(field, value);
  const body = text.slice(2);
  const singleCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (singleCase ? !options.allowUnchecksummed : !isAddress(text, { strict: true })) throw new InvalidEvmAddress(field, value);
  const checksummed = getAddress(text);
  if (/^0x0{40}$/.test(checksummed)) throw new InvalidEvmAddress(field, value);
  return checksummed;
}
