import { DomainError } from '../errors/domain-error';
import dns from 'node:dns';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';
import { embeddedIpv4, parseIpAddress, type IpAddress } from '../security/ip-address';
import { ownAddresses } from '../security/own-addresses';
import { specialPurposeIpv4, specialPurposeIpv6 } from '../security/special-purpose-addresses';

/**
 * The notifier calls merchants' URLs, so it must not be turned against the service's own network or host (SSRF).
 * Addresses are checked after resolution, at connect time (no second lookup to race with), unless private networks
 * are allowed (see privateNetworksAllowed). What is refused: every special-purpose range (one table,
 * lib/security/special-purpose-addresses.ts) and this host's own interface addresses (lib/security/own-addresses.ts).
 */
const BLOCKED_HOSTNAMES = new Set(['localhost', 'metadata.google.internal', 'metadata']);

/** A notification destination this service will not call (a private address or internal name); the message says why. */
export class RefusedDestination extends DomainError {
  constructor(reason: string) {
    super('unreachable_notify_url', { message: reason });
    this.name = 'RefusedDestination';
  }
}

/**
 * NOTIFY_ALLOW_PRIVATE_NETWORKS decides when it is set. Unset, development with the sandbox on (`npm run dev`) allows
 * them, so that a receiver on the developer's own machine gets its notifications; production never does.
 */
export function privateNetworksAllowed(): boolean {
  const configured = process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS;
  if (configured !== undefined && configured !== '') return configured === 'true';
  return process.env.NODE_ENV === 'development' && sandboxEnabled();
}

/** Why an IPv4 address is not for notifications (its range, or that it is this host's own), else undefined. */
function ipv4Refusal(ipv4: string): string | undefined {
  const range = specialPurposeIpv4(ipv4);
  if (range) return range;
  return ownAddresses().has(ipv4) ? "this host's own address" : undefined;
}

/** Why the address may not be called (`is not a public address (documentation (TEST-NET-1))`), naming the IPv4 address it carries when that decided; else undefined. */
function refusalReason(address: IpAddress): { subject: string; why: string } | undefined {
  if (address.family === 4) {
    const why = ipv4Refusal(address.text);
    return why === undefined ? undefined : { subject: address.text, why };
  }
  const carried = embeddedIpv4(address.bytes);
  for (const ipv4 of carried) {
    const why = ipv4Refusal(ipv4);
    if (why) return { subject: `${address.text}, which carries ${ipv4},`, why };
  }
  const range = carried.length > 0 ? undefined : specialPurposeIpv6(address.text);
  if (range) return { subject: address.text, why: range };
  return ownAddresses().has(address.text) ? { subject: address.text, why: "this host's own address" } : undefined;
}

/** An address the notifier may connect to: neither it nor an IPv4 address it carries is special-purpose or this host's own. */
export function isPublicAddress(address: string): boolean {
  const parsed = parseIpAddress(address);
  return parsed !== undefined && refusalReason(parsed) === undefined;
}

/**
 * Checks the URL's host text: IP literals, in whatever form they are written, and well-known internal names are
 * refused before any lookup (a literal is connected to without one, so this is its only check).
 */
export function checkDestinationHost(hostname: string): void {
  const address = parseIpAddress(hostname);
  if (address) {
    const reason = refusalReason(address);
    if (reason) throw new RefusedDestination(`destination ${reason.subject} is not a public address (${reason.why})`);
    return;
  }
  // A trailing dot names the same host (`localhost.` is localhost).
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (BLOCKED_HOSTNAMES.has(host) || host.endsWith('.localhost') || host.endsWith('.internal')) {
    throw new RefusedDestination(`destination ${host} is an internal host name`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that refuses private answers; the socket connects only to what was checked. */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    for (const entry of addresses) {
      const parsed = parseIpAddress(entry.address);
      const reason = parsed ? refusalReason(parsed) : { subject: entry.address, why: 'not an IP address' };
      if (reason === undefined) continue;
      const refusal = new RefusedDestination(`destination ${hostname} resolves to ${entry.address}, which is not a public address (${reason.why})`);
      return callback(Object.assign(refusal, { code: 'EREFUSED_DESTINATION' }), '');
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
