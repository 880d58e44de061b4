/**
 * Host texts that name a loopback, private, link-local, metadata or reserved destination, in the forms a URL can
 * carry them: IPv4 in hex, octal, decimal and short forms, full-width and ideographic digits and dots, percent-encoded,
 * IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64, 6to4 and Teredo IPv6, and internal names. Shared by the
 * guard's own table (destination-guard.test.ts) and the submit's (notify-url-reachability.http.test.ts).
 */
export const PRIVATE_HOST_FORMS: readonly string[] = [
  // IPv4 loopback, as the WHATWG URL parser reads each form
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '127.0.0.1.',
  '0x7f.1',
  '0x7F.0.0.1',
  '0x7f000001',
  '2130706433',
  '017700000001',
  '0177.0.0.1',
  '0177.1',
  '127.000.000.001',
  '１２７.０.０.１',
  '127。0。0。1',
  '%31%32%37.0.0.1',
  // unspecified, private, shared, multicast, broadcast
  '0',
  '0x0',
  '0.0.0.0',
  '10.0.0.1',
  '0xa000001',
  '012.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.0.1',
  '3232235521',
  '0xc0.0xa8.0.1',
  '100.64.0.1',
  '224.0.0.1',
  '255.255.255.255',
  // cloud metadata
  '169.254.169.254',
  '0xa9fea9fe',
  '2852039166',
  '0251.0376.0251.0376',
  '169.254.43518',
  // IPv6 loopback and unspecified
  '[::1]',
  '[0::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::]',
  // IPv4 inside IPv6
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:127.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[::a9fe:a9fe]',
  '[::8.8.8.8]',
  '[::ffff:0:127.0.0.1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b::10.0.0.1]',
  '[64:ff9b:1::8.8.8.8]',
  '[2002:7f00:1::1]',
  '[2002:a9fe:a9fe::]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  // IPv6 local ranges
  '[fe80::1]',
  '[fec0::1]',
  '[fc00::1]',
  '[fd00:ec2::254]',
  '[ff02::1]',
  '[100::1]',
  // internal names
  'localhost',
  'localhost.',
  'LOCALHOST',
  'shop.localhost',
  'metadata.google.internal',
  'metadata',
];

/** Public destinations, some of them inside IPv6 (DNS64's NAT64 answers, 6to4, IPv4-mapped). */
export const PUBLIC_HOST_FORMS: readonly string[] = ['8.8.8.8', '203.0.113.7', '[2606:4700:4700::1111]', '[::ffff:8.8.8.8]', '[64:ff9b::8.8.8.8]', '[2002:808:808::1]', 'merchant.example'];
