import dns from 'node:dns/promises';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkDestinationHost, guardedLookup, isPublicAddress } from './destination-guard';
import { PRIVATE_HOST_FORMS, PUBLIC_HOST_FORMS } from '../../test/private-host-forms';

describe('notify destination guard', () => {
  it.each(['127.0.0.1', '127.1.2.3', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.1.1.1', '224.0.0.1'])(
    '%s is not public',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('refuses internal names and private literals before any lookup', () => {
    expect(() => checkDestinationHost('localhost')).toThrow(/internal host name/);
    expect(() => checkDestinationHost('metadata.google.internal')).toThrow(/internal host name/);
    expect(() => checkDestinationHost('[::1]')).toThrow(/not a public address/);
    expect(() => checkDestinationHost('169.254.169.254')).toThrow(/not a public address/);
    expect(() => checkDestinationHost('merchant.example')).not.toThrow();
  });

  describe(`every form of a private address is refused, as written and as a URL carries it (${PRIVATE_HOST_FORMS.length} forms)`, () => {
    it.each(PRIVATE_HOST_FORMS)('%s', (form) => {
      expect(() => checkDestinationHost(form)).toThrow(/not a public address|internal host name/);
      expect(() => checkDestinationHost(new URL(`http://${form}:4455/n`).hostname)).toThrow(/not a public address|internal host name/);
    });
  });

  it.each(PUBLIC_HOST_FORMS)('public %s is allowed', (form) => {
    expect(() => checkDestinationHost(new URL(`http://${form}/n`).hostname)).not.toThrow();
  });

  it.each([
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated metadata'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo client 127.0.0.1'],
    ['fe80::1%eth0', 'link-local with a zone'],
  ])('a resolved address %s (%s) is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['64:ff9b::808:808', '2002:808:808::1', '::ffff:1.1.1.1'])('a resolved %s carrying a public IPv4 address is public (DNS64, 6to4)', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('names the IPv4 address an IPv6 literal carries', () => {
    expect(() => checkDestinationHost('[64:ff9b::169.254.169.254]')).toThrow('destination 64:ff9b::a9fe:a9fe, which carries 169.254.169.254, is not a public address (link-local (cloud metadata))');
    expect(() => checkDestinationHost('[::127.0.0.1]')).toThrow('destination ::7f00:1 is not a public address (not global unicast (loopback, unspecified, unique-local, link-local, multicast or reserved))');
  });

  it('checks the resolved addresses of an innocent-looking name', async () => {
    const hostname = os.hostname();
    const resolved = await dns.lookup(hostname, { all: true }).catch(() => []);
    expect(resolved.length, `${hostname} must resolve on this machine`).toBeGreaterThan(0);
    const expectRefusal = resolved.some((entry) => !isPublicAddress(entry.address));
    const error = await new Promise<Error | null>((resolve) => guardedLookup(hostname, {}, (failure) => resolve(failure)));
    if (expectRefusal) expect(error?.message).toMatch(/resolves to .*, which is not a public address \(/);
    else expect(error).toBeNull();
  });
});
