import { credentialChannels } from '../channels/index';
import type { PublishedError } from '../contract/published-error';
import type { DomainError, DomainErrorKind } from '../errors/domain-error';

interface CodeEntry {
  code: number;
  /** The message the contract fixes; without it the error's own message (which names the field) is answered. */
  message?: string;
  /**
   * The cases every channel shares; a channel adds its own (Channel.openApi.errorCases), so a kind only some channels
   * answer has an empty list here. Absent for kinds the open API never answers: a fault of the service if they reach it (code 1000).
   */
  published?: readonly PublishedError[];
}

const INTERNAL = { code: 1000, message: 'internal error' } as const;

/**
 * The one table from domain failures to the contract's codes and messages (spec "Errors", design "Extra error
 * codes"). The published catalogue (openapi/error-catalogue.ts) is built from it, so the two cannot disagree.
 */
export const OPEN_API_CODES: Readonly<Record<DomainErrorKind, CodeEntry>> = {
  invalid_callback_url: {
    code: 1001,
    message: 'invalid callback URL',
    published: [{ when: '`notifyUrl` or `redirectUrl` is not an absolute http(s) URL of at most 2048 characters.' }],
  },
  unreachable_notify_url: {
    code: 1001,
    published: [
      {
        example: 'notifyUrl must be reachable from the internet: destination 127.0.0.1 is not a public address (loopback)',
        when: '`notifyUrl` names an address that is not public (private, loopback, link-local, documentation or any other special-purpose range, or the service host\'s own) or an internal host name, which the notifier would refuse to call (production; development allows them).',
      },
    ],
  },
  nonstandard_url: {
    code: 1001,
    published: [
      {
        example: 'redirectUrl must not contain a backslash (browsers read it as /)',
        when: '`notifyUrl`, `redirectUrl` or `returnUrl` does not read as written: a backslash, a control character, `user@` before the host, a scheme without `//`, a host not in its standard form (an IPv4 address in hex or octal, Unicode or full-width characters: send the punycode), or a path the parser rewrites (`/../`). Differences that change nothing are accepted and stored in standard form: letter case of the scheme and host, a default port, the `/` of an empty path, percent-encoding.',
      },
    ],
  },
  invalid_credential_id: {
    code: 1001,
    message: 'credentialId invalid',
    published: [{ when: `An explicit \`credentialId\` is not a positive integer (${credentialChannels().map((channel) => channel.name).join(', ')}).` }],
  },
  invalid_pay_method: { code: 1001, message: 'payMethod must be wap or web', published: [] },
  ambiguous_signed_value: {
    code: 1001,
    published: [
      {
        example: 'productName must not contain "&redirectUrl=": in the signed text it would read as a separate redirectUrl field',
        when: 'A value contains `&` followed by a field name of the contract and `=`: its signed text would equal that of a request with that field (submit and query alike). Any other `&` is accepted.',
      },
    ],
  },
  signature_mismatch: {
    code: 1002,
    message: 'signature error',
    published: [{ when: 'Signature mismatch: check the AppSecret, field-name case, empty-value filtering and the sort order.' }],
  },
  invalid_parameter: {
    code: 1003,
    published: [
      {
        example: 'appId is required',
        when: 'Invalid parameter; the message names the field: missing or malformed field, unsupported `payType`/`chainType`/`payMethod`, amount format or range, malformed JSON, body not an object, body over 64 KiB, Content-Type not JSON. Also answered with HTTP 405 (`method must be POST`) to other methods.',
      },
    ],
  },
  order_permission_disabled: {
    code: 1004,
    message: 'order permission disabled',
    published: [{ when: "The merchant's permission to place orders is not enabled (the operator enables it)." }],
  },
  merchant_not_found: {
    code: 1005,
    message: 'merchant not found',
    published: [{ when: '`appId` is unknown, or the upstream application id was sent instead of the AppID.' }],
  },
  order_not_found: {
    code: 1006,
    message: 'order not found',
    published: [{ when: "No order of the authenticated merchant with that `merchantOrderNo` on the queried channel (another merchant's order is not found either)." }],
  },
  idempotency_conflict: {
    code: 1007,
    published: [
      {
        example: 'chainType differs from the original order ORDER-1',
        when: 'Idempotency conflict: the same `merchantOrderNo` with different immutable fields, or a number already used on another channel. The message names the field.',
      },
    ],
  },
  amount_over_limit: {
    code: 1008,
    published: [],
  },
  credential_unusable: {
    code: 1009,
    published: [],
  },
  no_receiving_address: {
    code: 1010,
    published: [],
  },
  pool_share_exceeded: {
    code: 1010,
    published: [],
  },
  upstream_failure: {
    code: 1011,
    published: [],
  },
  refund_not_offered: {
    code: 1020,
    published: [],
  },
  order_not_refundable: {
    code: 1021,
    published: [{ example: 'order ORDER-1 is pending: only a paid order can be refunded', when: 'The order is not paid (pending or closed): there is nothing to refund.' }],
  },
  refund_limit_reached: {
    code: 1022,
    published: [],
  },
  refund_exceeds_paid: {
    code: 1023,
    published: [
      {
        example: 'refundAmount 30.00 exceeds what is left to refund of order ORDER-1: 20.00 of 50.00',
        when: 'The refund would bring the sum of the order\'s refunds (processing or succeeded) above what was paid; the message says what is left.',
      },
    ],
  },
  refund_not_found: {
    code: 1024,
    message: 'refund not found',
    published: [{ when: 'No refund of the authenticated merchant with that `merchantRefundNo`.' }],
  },
  order_not_closable: {
    code: 1012,
    published: [
      {
        example: 'order P20260101000000000001 is paid: only a pending order can be closed',
        when: 'Close: the order is paid (also when the upstream reported the payment while it was being closed: the order is then paid and notified as usual) or has expired. The message names its state. Closing an order that was closed answers the same as the first close.',
      },
    ],
  },
  // Portal, console and CLI outcomes: no open-API request can cause them.
  password_rejected: INTERNAL,
  too_many_attempts: INTERNAL,
  email_already_registered: INTERNAL,
  invalid_credential: INTERNAL,
  invalid_receiving_address: INTERNAL,
  not_found: INTERNAL,
  action_refused: INTERNAL,
};

/** The answers that are not a domain failure: success, and the service's own fault. */
export const SUCCESS_CODE = 0;
export const INTERNAL_ERROR = INTERNAL;

export interface Envelope {
  code: number;
  message: string;
  data: unknown;
}

export function internalErrorEnvelope(): Envelope {
  return { code: INTERNAL.code, message: INTERNAL.message, data: null };
}

/** The database is unreachable for now: code 1000 (retry later), answered with HTTP 503 and Retry-After. */
export const TEMPORARILY_UNAVAILABLE_MESSAGE = 'service temporarily unavailable; retry later';

export function temporarilyUnavailableEnvelope(): Envelope {
  return { code: INTERNAL.code, message: TEMPORARILY_UNAVAILABLE_MESSAGE, data: null };
}

/** The envelope of a domain failure, or undefined when the open API must not answer it as one (code 1000). */
export function errorEnvelope(error: DomainError): Envelope | undefined {
  const entry = OPEN_API_CODES[error.kind];
  if (entry.code === INTERNAL.code) return undefined;
  return { code: entry.code, message: entry.message ?? error.message, data: null };
}

export function successEnvelope(message: 'success' | 'ok', data: unknown): Envelope {
  return { code: SUCCESS_CODE, message, data };
}
