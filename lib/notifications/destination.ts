/**
 * The destination of a notification: host[:port] of its notifyUrl as the WHATWG URL parser writes it (lower-case
 * host, default port left out). Fairness and the circuit breaker work per destination, so two merchants on one
 * server share its slots and its breaker, and one merchant's two servers do not.
 */
export function destinationOf(notifyUrl: string | null | undefined): string | null {
  if (!notifyUrl) return null;
  try {
    const url = new URL(notifyUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}
