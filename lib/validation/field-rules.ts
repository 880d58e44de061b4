import { DomainError, invalidParameter } from '../errors/domain-error';
import { present, type RequestFields } from './request-fields';
import { isIP } from 'node:net';
import { parseMinorUnits } from '../money/decimal-amount';
import { checkDestinationHost, privateNetworksAllowed, RefusedDestination } from '../notifications/destination-guard';
import { nonstandardReason } from './standard-url';

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

/** An absolute http(s) URL of at most 2048 characters without whitespace, parsed; else undefined. */
function httpUrl(value: string): URL | undefined {
  if (value.length > 2048 || /\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The field's URL, parsed, or undefined when absent; not an absolute http(s) URL: 1001 'invalid callback URL'. */
function parsedCallbackUrl(fields: RequestFields, name: string): { text: string; url: URL } | undefined {
  const text = present(fields, name);
  if (text === undefined) return undefined;
  const url = httpUrl(text);
  if (!url) throw new DomainError('invalid_callback_url', { message: `${name} is not a valid URL` });
  return { text, url };
}

/** The URL as stored: its standard form (WHATWG), when its text says the same; else 1001 naming the field. */
function standardForm(name: string, { text, url }: { text: string; url: URL }): string {
  const reason = nonstandardReason(text, url);
  if (reason) throw new DomainError('nonstandard_url', { message: `${name} ${reason}` });
  return url.href;
}

/**
 * A callback URL (notifyUrl, redirectUrl): absolute http(s), else 1001 'invalid callback URL'; written as it reads,
 * else 1001 naming the field (standard-url.ts). Answers the standard form, which is what is stored.
 */
export function optionalCallbackUrl(fields: RequestFields, name: string): string | undefined {
  const parsed = parsedCallbackUrl(fields, name);
  return parsed && standardForm(name, parsed);
}

export function requireCallbackUrl(fields: RequestFields, name: string): string {
  const value = optionalCallbackUrl(fields, name);
  if (value === undefined) throw invalidParameter(`${name} is required`);
  return value;
}

/** How many accepted notifyUrls are remembered: a merchant sends the same one with each order. */
const REMEMBERED_NOTIFY_URLS = 1024;

/**
 * notifyUrls accepted before, by their text, to their stored form; one map for each answer of privateNetworksAllowed().
 * Whether a text is accepted depends on nothing else, and parsing and checking it again (URL, host, standard form)
 * was a few percent of a submit's CPU. Refused texts are not remembered: they are checked again, so each refusal
 * says what it always said.
 */
const acceptedNotifyUrls = { privateAllowed: new Map<string, string>(), privateRefused: new Map<string, string>() };

function rememberAcceptedNotifyUrl(accepted: Map<string, string>, text: string, stored: string): void {
  if (accepted.size >= REMEMBERED_NOTIFY_URLS) accepted.delete(accepted.keys().next().value!);
  accepted.set(text, stored);
}

/**
 * notifyUrl: a callback URL the notifier may call. Where it refuses private networks (production), a URL whose host
 * is a private address (in whatever form it is written) or an internal name is refused now, with a reason, rather
 * than accepted and then never called; that reason comes before the standard-form rule, which such forms also break.
 */
export function requireNotifyUrl(fields: RequestFields): string {
  const allowPrivate = privateNetworksAllowed();
  const accepted = allowPrivate ? acceptedNotifyUrls.privateAllowed : acceptedNotifyUrls.privateRefused;
  const text = present(fields, 'notifyUrl');
  const known = text === undefined ? undefined : accepted.get(text);
  if (known !== undefined) return known;
  const parsed = parsedCallbackUrl(fields, 'notifyUrl');
  if (parsed === undefined) throw invalidParameter('notifyUrl is required');
  if (!allowPrivate) {
    try {
      checkDestinationHost(parsed.url.hostname);
    } catch (error) {
      if (!(error instanceof RefusedDestination)) throw error;
      throw new DomainError('unreachable_notify_url', { message: `notifyUrl must be reachable from the internet: ${error.message}` });
    }
  }
  const stored = standardForm('notifyUrl', parsed);
  rememberAcceptedNotifyUrl(accepted, parsed.text, stored);
  return stored;
}

/** A notifyUrl that may be left out (a refund's: its notices then go to the order's), by requireNotifyUrl's rules. */
export function optionalNotifyUrl(fields: RequestFields): string | undefined {
  return present(fields, 'notifyUrl') === undefined ? undefined : requireNotifyUrl(fields);
}

export function optionalText(fields: RequestFields, name: string, maxLength: number): string | undefined {
  const value = present(fields, name);
  // Characters are code points; a text of at most maxLength UTF-16 units has no more of them, and needs no count.
  if (value !== undefined && value.length > maxLength && [...value].length > maxLength) throw invalidParameter(`${name} must be at most ${maxLength} characters`);
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
