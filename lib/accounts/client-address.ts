import { embeddedIpv4, parseIpAddress } from '../security/ip-address';

/**
 * The address a proxy's hop names, in the forms proxies write it: `203.0.113.7`, `203.0.113.7:1001`, `2001:db8::1`,
 * `[2001:db8::1]`, `[2001:db8::1]:1001`, quoted (`"[2001:db8::1]:1001"`, as `Forwarded: for=` writes an IPv6 address),
 * in whatever spelling (`2001:DB8:0::1`): one address has one text. Anything else (`unknown`, an obfuscated `_hidden`)
 * stays as it is.
 */
export function hopAddress(hop: string): string {
  const unquoted = hop.trim().replace(/^"(.*)"$/, '$1');
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(unquoted);
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d*$/.exec(unquoted);
  const candidate = bracketed?.[1] ?? ipv4WithPort?.[1] ?? unquoted;
  return parseIpAddress(candidate)?.text ?? unquoted;
}

/** The `for=` values of a `Forwarded` header (RFC 7239), first hop first, as X-Forwarded-For lists them. */
export function forwardedForHops(forwarded: string | string[] | null | undefined): string[] {
  const value = Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '');
  const hops: string[] = [];
  for (const element of value.split(',')) {
    for (const pair of element.split(';')) {
      const separator = pair.indexOf('=');
      if (separator > 0 && pair.slice(0, separator).trim().toLowerCase() === 'for') hops.push(pair.slice(separator + 1).trim());
    }
  }
  return hops;
}

/**
 * The client's address as the service's own HTTP server recorded it: server/forwarded-headers.ts overwrites
 * X-Forwarded-For with the socket's address unless TRUST_PROXY=true, in which case the proxy's last hop is the client
 * (from its X-Forwarded-For, or from the `for=` of its `Forwarded` when it writes only that).
 */
export function clientAddressFrom(forwardedFor: string | string[] | null | undefined): string {
  const value = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = (value ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  const last = hops.at(-1);
  return last === undefined ? 'unknown' : hopAddress(last);
}

/**
 * What throttles count a client as: an IPv4 address as it is, an IPv6 address by its /64. A /64 is one subscriber's
 * network (the smallest a provider hands out, and a host picks any address in it at will, privacy addresses do it
 * daily), so counting each IPv6 address apart would give whoever holds a /64 2^64 fresh addresses. An IPv4 address
 * written as IPv6 (`::ffff:203.0.113.7`, how a dual-stack socket reports IPv4 clients) counts as that IPv4 address.
 * Anything that is not an address ('unknown') stays as it is.
 */
export function throttledClientOf(address: string): string {
  const parsed = parseIpAddress(hopAddress(address));
  if (!parsed) return address;
  if (parsed.family === 4) return parsed.text;
  const mapped = /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(parsed.text) ? embeddedIpv4(parsed.bytes)[0] : undefined;
  if (mapped) return mapped;
  const network = Array.from({ length: 4 }, (_, index) => ((parsed.bytes[index * 2]! << 8) | parsed.bytes[index * 2 + 1]!).toString(16));
  // Written as WHATWG URL writes addresses (compressed), so one network always has one key.
  return `${new URL(`http://[${network.join(':')}::]/`).hostname.slice(1, -1)}/64`;
}
