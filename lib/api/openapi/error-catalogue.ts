/**
 * Every envelope code the open API answers, with its message, as published (OpenAPI document, portal reference).
 * The messages that the contract fixes are exact; the others name the offending field and are shown by example.
 */
export interface DocumentedError {
  code: number;
  /** The exact message, or an example when `exact` is false. */
  message: string;
  exact: boolean;
  when: string;
  /** HTTP status of the answer (every handled outcome is 200). */
  httpStatus: number;
}

export const DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  { code: 0, message: 'success', exact: true, httpStatus: 200, when: 'Success (USDT and YHT; ALIPAY and WECHAT answer "ok").' },
  { code: 1000, message: 'internal error', exact: true, httpStatus: 500, when: 'Unexpected failure of the service. Retry later; nothing half-done is kept.' },
  { code: 1001, message: 'invalid callback URL', exact: true, httpStatus: 200, when: '`notifyUrl` or `redirectUrl` is not an absolute http(s) URL of at most 2048 characters.' },
  {
    code: 1001,
    message: 'notifyUrl must be reachable from the internet: destination 127.0.0.1 is a private, loopback or link-local address',
    exact: false,
    httpStatus: 200,
    when: '`notifyUrl` names a private, loopback or link-local address or an internal host name, which the notifier would refuse to call (production; development allows them).',
  },
  { code: 1001, message: 'credentialId invalid', exact: true, httpStatus: 200, when: 'An explicit `credentialId` is not a positive integer (ALIPAY, WECHAT).' },
  { code: 1001, message: 'payMethod must be wap or web', exact: true, httpStatus: 200, when: 'ALIPAY `payMethod` is neither `wap` nor `web`.' },
  { code: 1002, message: 'signature error', exact: true, httpStatus: 200, when: 'Signature mismatch: check the AppSecret, field-name case, empty-value filtering and the sort order.' },
  {
    code: 1003,
    message: 'appId is required',
    exact: false,
    httpStatus: 200,
    when: 'Invalid parameter; the message names the field: missing or malformed field, unsupported `payType`/`chainType`/`payMethod`, amount format or range, malformed JSON, body not an object, body over 64 KiB, Content-Type not JSON. Also answered with HTTP 405 (`method must be POST`) to other methods.',
  },
  { code: 1004, message: 'order permission disabled', exact: true, httpStatus: 200, when: "The merchant's permission to place orders is not enabled (the operator enables it)." },
  { code: 1005, message: 'merchant not found', exact: true, httpStatus: 200, when: '`appId` is unknown, or the upstream application id was sent instead of the AppID.' },
  { code: 1006, message: 'order not found', exact: true, httpStatus: 200, when: "No order of the authenticated merchant with that `merchantOrderNo` on the queried channel (another merchant's order is not found either)." },
  {
    code: 1007,
    message: 'chainType differs from the original order ORDER-1',
    exact: false,
    httpStatus: 200,
    when: 'Idempotency conflict: the same `merchantOrderNo` with different immutable fields, or a number already used on another channel. The message names the field.',
  },
  { code: 1008, message: 'pay_usdt exceeds the platform per-order limit of 10000.00 USDT', exact: false, httpStatus: 200, when: 'Amount over the platform per-order limit.' },
  {
    code: 1009,
    message: 'ALIPAY credential not found, not approved, or not enabled',
    exact: true,
    httpStatus: 200,
    when: "ALIPAY: `credentialId` is not the authenticated merchant's, or the credential is not approved, not enabled or deleted; without `credentialId`, the merchant has no usable credential.",
  },
  { code: 1009, message: 'WECHAT credential not found, not approved, or not enabled', exact: true, httpStatus: 200, when: 'The same conditions for WECHAT credentials.' },
  { code: 1010, message: 'no receiving address is free for pay_usdt 10.50; try again later', exact: false, httpStatus: 200, when: 'USDT: every receiving address already holds that amount and amount + 0.01 for pending orders.' },
  { code: 1011, message: 'YHT channel is not available', exact: false, httpStatus: 200, when: 'Upstream channel error: the upstream refused or is unreachable; nothing is created. The message gives the reason.' },
];
