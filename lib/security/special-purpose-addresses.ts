import net from 'node:net';

/**
 * The IANA special-purpose address registries (IPv4 and IPv6, RFC 6890 and its updates), the multicast ranges and
 * the reserved space: no merchant's server is there, so the notifier never calls an address in them. One table,
 * read by the submit's check of a notifyUrl and by the notifier's check of each resolved address
 * (lib/notifications/destination-guard.ts). Each row says what the range is, which is what a refusal can say.
 */
export const SPECIAL_PURPOSE_IPV4: readonly (readonly [network: string, prefix: number, what: string])[] = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private-use'],
  ['100.64.0.0', 10, 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private-use'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private-use'],
  ['192.175.48.0', 24, 'AS112 direct delegation'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and the limited broadcast 255.255.255.255)'],
];

/**
 * IPv6 special-purpose ranges inside the global unicast space 2000::/3; everything outside 2000::/3 is loopback,
 * unspecified, unique-local, link-local, site-local, multicast, discard-only or still reserved, and is refused as
 * such, except the forms that carry an IPv4 address (IPv4-mapped, IPv4-translated, NAT64 64:ff9b::/96, 6to4 2002::/16,
 * Teredo 2001::/32), which are judged by the address they carry (lib/security/ip-address.ts embeddedIpv4).
 */
export const SPECIAL_PURPOSE_IPV6: readonly (readonly [network: string, prefix: number, what: string])[] = [
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['2620:4f:8000::', 48, 'AS112 direct delegation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'SRv6 segment identifiers'],
];
const GLOBAL_UNICAST_IPV6: readonly [string, number] = ['2000::', 3];

function blockList(family: 'ipv4' | 'ipv6', rows: readonly (readonly [string, number, string])[]): { list: net.BlockList; rows: readonly (readonly [string, number, string])[] } {
  const list = new net.BlockList();
  for (const [network, prefix] of rows) list.addSubnet(network, prefix, family);
  return { list, rows };
}

const ipv4 = blockList('ipv4', SPECIAL_PURPOSE_IPV4);
const ipv6 = blockList('ipv6', SPECIAL_PURPOSE_IPV6);
const globalUnicast = new net.BlockList();
globalUnicast.addSubnet(GLOBAL_UNICAST_IPV6[0], GLOBAL_UNICAST_IPV6[1], 'ipv6');

/** What range the address (in its one text form) is in, e.g. `documentation (TEST-NET-1)`; undefined for a public one. */
function rangeOf(address: string, family: 'ipv4' | 'ipv6', table: typeof ipv4): string | undefined {
  if (!table.list.check(address, family)) return undefined;
  const one = new net.BlockList();
  for (const [network, prefix, what] of table.rows) {
    one.addSubnet(network, prefix, family);
    if (one.check(address, family)) return what;
  }
  return 'special-purpose';
}

/** The special-purpose range an IPv4 address is in, else undefined. */
export function specialPurposeIpv4(address: string): string | undefined {
  return rangeOf(address, 'ipv4', ipv4);
}

/**
 * The special-purpose range an IPv6 address (that carries no IPv4 address) is in, else undefined: outside 2000::/3
 * it is `not global unicast` (loopback, unique-local, link-local, multicast, reserved, …).
 */
export function specialPurposeIpv6(address: string): string | undefined {
  if (!globalUnicast.check(address, 'ipv6')) return 'not global unicast (loopback, unspecified, unique-local, link-local, multicast or reserved)';
  return rangeOf(address, 'ipv6', ipv6);
}
