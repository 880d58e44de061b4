import { DomainError } from '../errors/domain-error';
import dns from 'node:dns';
import net from 'node:net';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';

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
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local (incl. fd00:ec2::254 metadata)
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
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

function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1];
}

export function isPublicAddress(address: string): boolean {
  const ipv4 = net.isIPv4(address) ? address : mappedIpv4(address);
  if (ipv4) return !blocked.check(ipv4, 'ipv4');
  if (net.isIPv6(address)) return !blocked.check(address, 'ipv6');
  return false;
}

/** Checks the URL's host text: IP literals and well-known internal names are refused before any lookup. */
export function checkDestinationHost(hostname: string): void {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (BLOCKED_HOSTNAMES.has(host) || host.endsWith('.localhost') || host.endsWith('.internal')) {
    throw new RefusedDestination(`destination ${host} is an internal host name`);
  }
  if (net.isIP(host) && !isPublicAddress(host)) throw new RefusedDestination(`destination ${host} is a private, loopback or link-local address`);
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
