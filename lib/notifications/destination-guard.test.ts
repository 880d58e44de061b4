import dns from 'node:dns/promises';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkDestinationHost, guardedLookup, isPublicAddress } from './destination-guard';

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
    expect(() => checkDestinationHost('[::1]')).toThrow(/private, loopback or link-local/);
    expect(() => checkDestinationHost('169.254.169.254')).toThrow(/private, loopback or link-local/);
    expect(() => checkDestinationHost('merchant.example')).not.toThrow();
  });

  it('checks the resolved addresses of an innocent-looking name', async () => {
    const hostname = os.hostname();
    const resolved = await dns.lookup(hostname, { all: true }).catch(() => []);
    expect(resolved.length, `${hostname} must resolve on this machine`).toBeGreaterThan(0);
    const expectRefusal = resolved.some((entry) => !isPublicAddress(entry.address));
    const error = await new Promise<Error | null>((resolve) => guardedLookup(hostname, {}, (failure) => resolve(failure)));
    if (expectRefusal) expect(error?.message).toMatch(/resolves to .* private, loopback or link-local/);
    else expect(error).toBeNull();
  });
});
