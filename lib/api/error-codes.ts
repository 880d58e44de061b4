import { OpenApiError, type OpenApiErrorKind } from './errors';

/** The one table from failures to the contract's codes and messages (spec "Errors", design "Extra error codes"). */
const CODES: Record<OpenApiErrorKind, { code: number; message?: string }> = {
  internal: { code: 1000, message: 'internal error' },
  invalid_callback_url: { code: 1001, message: 'invalid callback URL' },
  unreachable_notify_url: { code: 1001 },
  invalid_credential_id: { code: 1001, message: 'credentialId invalid' },
  invalid_pay_method: { code: 1001, message: 'payMethod must be wap or web' },
  signature_mismatch: { code: 1002, message: 'signature error' },
  invalid_parameter: { code: 1003 },
  order_permission_disabled: { code: 1004, message: 'order permission disabled' },
  merchant_not_found: { code: 1005, message: 'merchant not found' },
  order_not_found: { code: 1006, message: 'order not found' },
  idempotency_conflict: { code: 1007 },
  amount_over_limit: { code: 1008 },
  credential_unusable: { code: 1009 },
  no_receiving_address: { code: 1010 },
  upstream_failure: { code: 1011 },
};

export interface Envelope {
  code: number;
  message: string;
  data: unknown;
}

export function errorEnvelope(error: OpenApiError): Envelope {
  const entry = CODES[error.kind];
  return { code: entry.code, message: entry.message ?? error.detail ?? error.kind, data: null };
}

export function successEnvelope(message: 'success' | 'ok', data: unknown): Envelope {
  return { code: 0, message, data };
}
