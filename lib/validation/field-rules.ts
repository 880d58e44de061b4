import { DomainError, invalidParameter } from '../errors/domain-error';
import { present, type RequestFields } from './request-fields';
import { isIP } from 'node:net';
import { parseMinorUnits } from '../money/decimal-amount';
import { checkDestinationHost, privateNetworksAllowed, RefusedDestination } from '../notifications/destination-guard';

const MERCHANT_ORDER_NO = /^[\x21-\x7e]{1,64}$/;

export function requireMerchantOrderNo(fields: RequestFields): string {
  const value = present(fields, 'merchantOrderNo');
  if (!value) throw invalidParameter('merchantOrderNo is required');
  if (!MERCHANT_ORDER_NO.test(value)) throw invalidParameter('merchantOrderNo must be 1 to 64 visible ASCII characters');
  return value;
}

/** A positive amount with at most 2 decimals, in minor units; the error names the field it came from. */
export function requirePositiveAmount(value: string, field: string): bigint {
  const minor = parseMinorUnits(value);
  if (minor === undefined || minor <= 0n) {
    throw invalidParameter(`${field} must be a decimal number greater than 0 with at most 2 decimal places`);
  }
  return minor;
}

function isHttpUrl(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A callback URL (notifyUrl, redirectUrl): absolute http(s), else 1001 'invalid callback URL'. */
export function optionalCallbackUrl(fields: RequestFields, name: string): string | undefined {
  const value = present(fields, name);
  if (value !== undefined && !isHttpUrl(value)) throw new DomainError('invalid_callback_url', { message: `${name} is not a valid URL` });
  return value;
}

export function requireCallbackUrl(fields: RequestFields, name: string): string {
  const value = optionalCallbackUrl(fields, name);
  if (value === undefined) throw invalidParameter(`${name} is required`);
  return value;
}

/**
 * notifyUrl: a callback URL the notifier may call. Where it refuses private networks (production), a URL whose host
 * is a private address or an internal name is refused now, with a reason, rather than accepted and then never called.
 */
export function requireNotifyUrl(fields: RequestFields): string {
  const value = requireCallbackUrl(fields, 'notifyUrl');
  if (privateNetworksAllowed()) return value;
  try {
    checkDestinationHost(new URL(value).hostname);
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    throw new DomainError('unreachable_notify_url', { message: `notifyUrl must be reachable from the internet: ${error.message}` });
  }
  return value;
}

export function optionalText(fields: RequestFields, name: string, maxLength: number): string | undefined {
  const value = present(fields, name);
  if (value !== undefined && [...value].length > maxLength) throw invalidParameter(`${name} must be at most ${maxLength} characters`);
  return value;
}

/**
 * `clientIp`, the payer's own address (optional on every fiat channel; an upstream's H5 payment may need it): an IPv4 or IPv6 address
 * in text form, without a zone, else 1003 naming the field.
 */
export function optionalClientIp(fields: RequestFields): string | undefined {
  const value = present(fields, 'clientIp');
  if (value !== undefined && (value.length > 45 || value.includes('%') || isIP(value) === 0)) throw invalidParameter('clientIp must be an IPv4 or IPv6 address');
  return value;
}
