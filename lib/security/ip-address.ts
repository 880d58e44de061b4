import net from 'node:net';

/**
 * IP address texts in every form they come in, reduced to one each: the notify-destination guard decides on these,
 * never on the text a merchant wrote (`0x7f.1`, `[::ffff:127.0.0.1]`, `[::127.0.0.1]` and `[64:ff9b::7f00:1]` are
 * all 127.0.0.1 to someone).
 */
export type IpAddress = { family: 4; text: string } | { family: 6; text: string; bytes: Uint8Array };

/** The 16 bytes of an IPv6 text that net.isIPv6 accepts (a dotted IPv4 tail included, a zone already removed). */
function ipv6Bytes(text: string): Uint8Array {
  let head = text;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const octets = dotted[1]!.split('.').map(Number);
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    head = text.slice(0, -dotted[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groups = (part: string) => part.split(':').filter(Boolean).map((group) => parseInt(group, 16));
  let words: number[];
  if (head.includes('::')) {
    const [left, right] = head.split('::') as [string, string];
    const after = [...groups(right), ...tail];
    words = [...groups(left), ...Array<number>(8 - groups(left).length - after.length).fill(0), ...after];
  } else {
    words = [...groups(head), ...tail];
  }
  const bytes = new Uint8Array(16);
  words.forEach((word, index) => {
    bytes[index * 2] = word >> 8;
    bytes[index * 2 + 1] = word & 0xff;
  });
  return bytes;
}

/**
 * The address a host text names, or undefined when it names none (a host name). Brackets and an IPv6 zone
 * (`%eth0`) are removed; an IPv4 host in any form the WHATWG URL parser accepts for http(s) (hex `0x7f.1`, octal
 * `0177.0.0.1`, a single number `2130706433`, fewer parts `127.1`, full-width digits, a trailing dot) is read as
 * that parser reads it, which is how the notifier's own URL parsing will read it.
 */
export function parseIpAddress(host: string): IpAddress | undefined {
  const unbracketed = host.replace(/^\[(.*)\]$/, '$1');
  const bare = unbracketed.includes(':') ? unbracketed.replace(/%.*$/, '') : unbracketed;
  if (net.isIPv6(bare)) {
    // WHATWG URL's serialisation is the compressed form most tools write (`::ffff:7f00:1`).
    return { family: 6, text: new URL(`http://[${bare}]/`).hostname.slice(1, -1), bytes: ipv6Bytes(bare) };
  }
  let parsed: string;
  try {
    parsed = new URL(`http://${bare}/`).hostname;
  } catch {
    return undefined;
  }
  return net.isIPv4(parsed) ? { family: 4, text: parsed } : undefined;
}

const ipv4At = (bytes: Uint8Array, offset: number, invert = false): string =>
  Array.from(bytes.subarray(offset, offset + 4), (byte) => (invert ? ~byte & 0xff : byte)).join('.');

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((byte, index) => bytes[index] === byte);

/**
 * The IPv4 addresses an IPv6 address carries, by the transition mechanisms that deliver to them: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), the NAT64 well-known prefix (64:ff9b::/96, RFC 6052), 6to4
 * (2002::/16) and Teredo (2001::/32: its server, and its client stored inverted). Empty for any other address.
 */
export function embeddedIpv4(bytes: Uint8Array): string[] {
  const zeros = (count: number) => Array<number>(count).fill(0);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return [ipv4At(bytes, 12)];
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return [ipv4At(bytes, 12)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return [ipv4At(bytes, 12)];
  if (startsWith(bytes, [0x20, 0x02])) return [ipv4At(bytes, 2)];
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return [ipv4At(bytes, 4), ipv4At(bytes, 12, true)];
  return [];
}
