import net from 'node:net';
import { StartupRefusal } from '../config/startup-refusal';
import { parseIpAddress } from './ip-address';

/**
 * TRUST_PROXY says whose forwarded headers (X-Forwarded-For, X-Forwarded-Host, Forwarded, …) the service believes:
 * unset or `false`, nobody's; `true`, any peer's (the service is reachable only through its proxy); else a comma list
 * of the proxies' addresses or networks (`10.0.0.5, 10.1.0.0/16, fd00::/8`), and only a request whose socket comes
 * from one of them. Anything else stops the process naming the setting: a typo must not quietly trust nobody.
 */
type Trust = { kind: 'none' } | { kind: 'any' } | { kind: 'listed'; proxies: net.BlockList };

const TRUST_PROXY_RULE = 'must be true, false, or a comma list of the proxies’ IP addresses or networks (e.g. 10.0.0.5, 10.1.0.0/16)';

function parsedTrust(value: string | undefined): Trust {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return { kind: 'none' };
  if (text === 'true') return { kind: 'any' };
  const proxies = new net.BlockList();
  for (const entry of text.split(',').map((part) => part.trim())) {
    const [address, prefixText, extra] = entry.split('/');
    const parsed = address === undefined ? undefined : parseIpAddress(address);
    const family = parsed?.family === 6 ? 'ipv6' : 'ipv4';
    const prefix = prefixText === undefined ? (family === 'ipv6' ? 128 : 32) : Number(prefixText);
    const valid = parsed !== undefined && net.isIP(address!) !== 0 && extra === undefined && Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 'ipv6' ? 128 : 32);
    if (!valid) throw new StartupRefusal('TRUST_PROXY', `${TRUST_PROXY_RULE}; "${entry}" is none of these`);
    proxies.addSubnet(parsed.text, prefix, family);
  }
  return { kind: 'listed', proxies };
}

let cached: { value: string | undefined; trust: Trust } | undefined;

function trust(env: NodeJS.ProcessEnv): Trust {
  const value = env.TRUST_PROXY;
  if (!cached || cached.value !== value) cached = { value, trust: parsedTrust(value) };
  return cached.trust;
}

/** Stops the process (StartupRefusal naming TRUST_PROXY) when the setting is none of its forms. */
export function checkTrustProxySetting(env: NodeJS.ProcessEnv = process.env): void {
  trust(env);
}

/** Whether the forwarded headers of a request whose socket comes from `peer` are believed. */
export function trustsForwardedHeaders(peer: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const configured = trust(env);
  if (configured.kind !== 'listed') return configured.kind === 'any';
  const address = parseIpAddress(peer);
  if (!address) return false;
  if (configured.proxies.check(address.text, address.family === 6 ? 'ipv6' : 'ipv4')) return true;
  // A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(peer)?.[1];
  return mapped !== undefined && configured.proxies.check(mapped, 'ipv4');
}
