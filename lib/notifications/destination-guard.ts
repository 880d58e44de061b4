import { DomainError } from '../errors/domain-error';
import dns from 'node:dns';
import net from 'node:net';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';
import { embeddedIpv4, parseIpAddress, type IpAddress } from '../security/ip-address';

/**
 * The notifier calls merchants' URLs, so it must not be turned against the service's own network (SSRF).
 * Addresses are checked after resolution, at connect time (no second lookup to race with), unless private networks
 * are allowed (see privateNetworksAllowed).
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
// IPv6 ranges refused whatever they carry; those that carry an IPv4 address (lib/security/ip-address.ts) are decided by it.
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d, which no public route reaches
  ['100::', 64], // discard-only
  ['64:ff9b:1::', 48], // NAT64 for local use (RFC 8215): translates into the operator's own networks
  ['fc00::', 7], // unique local (incl. fd00:ec2::254 metadata)
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

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

/** The first non-public IPv4 address the address is or carries (IPv4-mapped, NAT64, 6to4, Teredo), else undefined. */
function privateIpv4Within(address: IpAddress): string | undefined {
  if (address.family === 4) return blocked.check(address.text, 'ipv4') ? address.text : undefined;
  return embeddedIpv4(address.bytes).find((ipv4) => blocked.check(ipv4, 'ipv4'));
}

function isPublic(address: IpAddress): boolean {
  if (privateIpv4Within(address) !== undefined) return false;
  return address.family === 4 || !blocked.check(address.text, 'ipv6');
}

/** An address the notifier may connect to: neither it nor an IPv4 address it carries is private, loopback, link-local or reserved. */
export function isPublicAddress(address: string): boolean {
  const parsed = parseIpAddress(address);
  return parsed !== undefined && isPublic(parsed);
}

/** Why an address is refused, naming the IPv4 address it carries when that is what decided. */
function refusalOf(address: IpAddress): RefusedDestination {
  const carried = address.family === 6 ? privateIpv4Within(address) : undefined;
  const what = carried ? `${address.text}, which carries ${carried},` : address.text;
  return new RefusedDestination(`destination ${what} is a private, loopback or link-local address`);
}

/**
 * Checks the URL's host text: IP literals, in whatever form they are written, and well-known internal names are
 * refused before any lookup (a literal is connected to without one, so this is its only check).
 */
export function checkDestinationHost(hostname: string): void {
  const address = parseIpAddress(hostname);
  if (address) {
    if (!isPublic(address)) throw refusalOf(address);
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
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      return callback(Object.assign(new RefusedDestination(`destination ${hostname} resolves to ${refused.address}, a private, loopback or link-local address`), { code: 'EREFUSED_DESTINATION' }), '');
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
