/**
 * The client's address as the service's own HTTP server recorded it: scripts/serve.ts overwrites X-Forwarded-For
 * with the socket's address unless TRUST_PROXY=true, in which case the proxy's last hop is the client.
 */
export function clientAddressFrom(forwardedFor: string | string[] | null | undefined): string {
  const value = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = (value ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  return hops.at(-1) ?? 'unknown';
}
