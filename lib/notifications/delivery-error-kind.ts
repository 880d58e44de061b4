/** What went wrong with a notification attempt, as a reader's language names it; the raw error stays in the timeline. */
export type DeliveryErrorKind = 'refused' | 'timeout' | 'unknownHost' | 'reset' | 'notAcknowledged' | 'other';

/** Reads the kind from an attempt's stored error text (Node's error codes, the notifier's own phrases). */
export function deliveryErrorKind(error: string): { kind: DeliveryErrorKind; httpStatus?: number } {
  const httpStatus = /HTTP (\d{3})/.exec(error)?.[1];
  if (/not acknowledged/i.test(error)) return httpStatus ? { kind: 'notAcknowledged', httpStatus: Number(httpStatus) } : { kind: 'notAcknowledged' };
  if (/ECONNREFUSED/.test(error)) return { kind: 'refused' };
  if (/timeout|ETIMEDOUT/i.test(error)) return { kind: 'timeout' };
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return { kind: 'unknownHost' };
  if (/ECONNRESET|socket hang up|other side closed/i.test(error)) return { kind: 'reset' };
  return { kind: 'other' };
}
