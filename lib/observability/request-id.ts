import { randomBytes } from 'node:crypto';

/**
 * Every HTTP request's id (the X-Request-Id header, answered back): what its log lines, and the order it creates, are
 * found by. It is handed on explicitly (OpenApiInput, SignedRequest, the order's request_id column), not through
 * AsyncLocalStorage: on Node 20 that turns on promise hooks for the whole process, which cost the open API several
 * percent of its throughput (every await pays for them).
 */

/** An incoming X-Request-Id is honoured when it is short and plain (a proxy's or the merchant's id), else replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,64}$/;

/** This process's random tag: with a counter, an id unique across processes and restarts for any practical purpose. */
const PROCESS_TAG = randomBytes(6).toString('hex');
let issued = 0;

/** The caller's id when it is sane, else a new one (far cheaper than a UUID on the open API's path). */
export function requestIdFrom(header: string | string[] | undefined | null): string {
  if (typeof header === 'string' && SANE_REQUEST_ID.test(header)) return header;
  issued += 1;
  return `${PROCESS_TAG}-${issued.toString(36)}`;
}
