import os from 'node:os';
import { parseIpAddress } from './ip-address';

/**
 * The addresses of this host's own interfaces, whatever range they are in: a service listening on 0.0.0.0 answers on
 * each of them (a public address included), so the notifier must not be sent there. Read when first asked (at start:
 * the guard asks at submit and at delivery) and again once the snapshot is REFRESH_MS old, so an address a host gains
 * later (DHCP, a new interface) is refused within that time. No timer: a refresh happens on the check that needs it.
 */
export const OWN_ADDRESSES_REFRESH_MS = 30_000;

let snapshot: { readAt: number; addresses: ReadonlySet<string> } | undefined;

function readInterfaces(): ReadonlySet<string> {
  const addresses = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      const address = parseIpAddress(entry.address);
      if (address) addresses.add(address.text);
    }
  }
  return addresses;
}

/** This host's interface addresses, each in its one text form (lib/security/ip-address.ts), at most REFRESH_MS old. */
export function ownAddresses(now = Date.now()): ReadonlySet<string> {
  if (!snapshot || now - snapshot.readAt >= OWN_ADDRESSES_REFRESH_MS) snapshot = { readAt: now, addresses: readInterfaces() };
  return snapshot.addresses;
}
