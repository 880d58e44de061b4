import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What a log line says about the request (or worker attempt) it belongs to: the request id, and the order once it is
 * known. Carried by AsyncLocalStorage, so everything a request causes (the order's lines, its upstream calls) names
 * them without being handed them.
 */
export interface RequestContext {
  requestId: string;
  orderNo?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** An incoming X-Request-Id is honoured when it is short and plain (a proxy's or the merchant's id), else replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,64}$/;

export function requestIdFrom(header: string | string[] | undefined | null): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

export function runWithRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The request id of the request being served, if any (stored with what it creates, for later attempts to name). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** From here on, the request's lines name this order too. */
export function noteOrderInContext(orderNo: string): void {
  const context = storage.getStore();
  if (context) context.orderNo = orderNo;
}
