/**
 * Transport-free failures of the open API. Each kind maps to one contract code in `error-codes.ts`;
 * `detail` is the message merchants see when the contract does not fix it (it names the field).
 */
export type OpenApiErrorKind =
  | 'internal'
  | 'invalid_callback_url'
  | 'unreachable_notify_url'
  | 'invalid_credential_id'
  | 'invalid_pay_method'
  | 'signature_mismatch'
  | 'invalid_parameter'
  | 'order_permission_disabled'
  | 'merchant_not_found'
  | 'order_not_found'
  | 'idempotency_conflict'
  | 'amount_over_limit'
  | 'credential_unusable'
  | 'no_receiving_address'
  | 'upstream_failure';

export class OpenApiError extends Error {
  constructor(
    readonly kind: OpenApiErrorKind,
    readonly detail?: string,
  ) {
    super(detail ?? kind);
    this.name = 'OpenApiError';
  }
}

export const invalidParameter = (detail: string) => new OpenApiError('invalid_parameter', detail);
