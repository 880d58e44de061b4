import { embeddedIpv4, parseIpAddress } from '../security/ip-address';

/**
 * The client's address as the service's own HTTP server recorded it: scripts/serve.ts overwrites X-Forwarded-For
 * with the socket's address unless TRUST_PROXY=true, in which case the proxy's last hop is the client.
 */
export function clientAddressFrom(forwardedFor: string | string[] | null | undefined): string {
  const value = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = (value ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  return hops.at(-1) ?? 'unknown';
}

/**
 * What throttles count a client as: an IPv4 address as it is, an IPv6 address by its /64. A /64 is one subscriber's
 * network (the smallest a provider hands out, and a host picks any address in it at will, privacy addresses do it
 * daily), so counting each IPv6 address apart would give whoever holds a /64 2^64 fresh addresses. An IPv4 address
 * written as IPv6 (`::ffff:203.0.113.7`, how a dual-stack socket reports IPv4 clients) counts as that IPv4 address.
 * Anything that is not an address ('unknown') stays as it is.
 */
export function throttledClientOf(address: string): string {
  const parsed = parseIpAddress(address);
  if (!parsed) return address;
  if (parsed.family === 4) return parsed.text;
  const mapped = /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(parsed.text) ? embeddedIpv4(parsed.bytes)[0] : undefined;
  if (mapped) return mapped;
  const network = Array.from({ length: 4 }, (_, index) => ((parsed.bytes[index * 2]! << 8) | parsed.bytes[index * 2 + 1]!).toString(16));
  // Written as WHATWG URL writes addresses (compressed), so one network always has one key.
  return `${new URL(`http://[${network.join(':')}::]/`).hostname.slice(1, -1)}/64`;
}
