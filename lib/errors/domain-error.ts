import type { DomainMessage } from './domain-message';

/**
 * Every failure the domain reports on purpose. A kind says what went wrong, never who asked: each transport (open
 * API, portal and console forms, CLI) maps kinds to its own answer in one place (`lib/errors/*-answer.ts`,
 * `lib/api/error-codes.ts`), so the domain never throws a transport's error.
 */
export const DOMAIN_ERROR_KINDS = [
  // Requests that name a field (open API, forms).
  'invalid_parameter',
  'invalid_callback_url',
  'unreachable_notify_url',
  'invalid_credential_id',
  'invalid_pay_method',
  'ambiguous_signed_value',
  'nonstandard_url',
  // Who is asking.
  'signature_mismatch',
  'merchant_not_found',
  'order_permission_disabled',
  'password_rejected',
  'too_many_attempts',
  'email_already_registered',
  // Orders.
  'order_not_found',
  'idempotency_conflict',
  'amount_over_limit',
  'no_receiving_address',
  'pool_share_exceeded',
  // Refunds.
  'refund_not_offered',
  'order_not_refundable',
  'refund_limit_reached',
  'refund_exceeds_paid',
  'refund_not_found',
  'order_not_closable',
  // Credentials and receiving addresses.
  'credential_unusable',
  'invalid_credential',
  'invalid_receiving_address',
  // Anything the caller named that is not there (another merchant's is not there either).
  'not_found',
  // The state of the data does not allow the action (a paid order cannot be closed, …).
  'action_refused',
  // A channel or chain upstream refused or could not be reached; nothing was changed.
  'upstream_failure',
] as const;

export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

export interface DomainErrorDetails {
  /**
   * In English, for logs, operators, the CLI and the open API when its contract does not fix the text; names the field.
   * Defaults to the kind.
   */
  message?: string;
  /** What a merchant's form shows instead of the kind's own text, when the refusal needs explaining; translated by the form. */
  userMessage?: DomainMessage;
  /** What each input field shows, by field name, for forms that mark each field; translated by the form. */
  fieldErrors?: Readonly<Record<string, DomainMessage>>;
}

export class DomainError extends Error {
  readonly userMessage?: DomainMessage;
  readonly fieldErrors?: Readonly<Record<string, DomainMessage>>;

  constructor(
    readonly kind: DomainErrorKind,
    details: DomainErrorDetails = {},
  ) {
    super(details.message ?? kind);
    this.name = 'DomainError';
    this.userMessage = details.userMessage;
    this.fieldErrors = details.fieldErrors;
  }
}

/** True for a DomainError of one of `kinds` (of any kind when none is given). */
export function isDomainError(error: unknown, ...kinds: DomainErrorKind[]): error is DomainError {
  return error instanceof DomainError && (kinds.length === 0 || kinds.includes(error.kind));
}

/** The most common refusal: a request field is missing or malformed; the message names it. */
export const invalidParameter = (message: string) => new DomainError('invalid_parameter', { message });

/**
 * An action the state of the data does not allow; the English message says why (operators and the CLI read it), and
 * `userMessage` where a merchant's form must explain it (otherwise the merchant reads the kind's own text).
 */
export const actionRefused = (message: string, userMessage?: DomainMessage) => new DomainError('action_refused', { message, userMessage });

/** Something the caller named is not there; `what` names it for logs, operators and the CLI. */
export const notFound = (what: string) => new DomainError('not_found', { message: `${what} not found` });

/** A channel or chain upstream refused or could not be reached (nothing was changed); the message gives the reason. */
export const upstreamFailure = (message: string) => new DomainError('upstream_failure', { message });
