import { DomainError, invalidParameter } from '../../errors/domain-error';
import type { DirectOrderInput } from '../../orders/create-direct-order';
import { optionalCallbackUrl, optionalClientIp, optionalText, requireNotifyUrl, requireMerchantOrderNo, requirePositiveAmount } from '../../validation/field-rules';
import { present, type RequestFields } from '../../validation/request-fields';

export const MAX_CREDENTIAL_ID = 2_147_483_647;
/** The card-and-wallet upstreams' ceiling for one payment: 100,000,000.00 yuan. */
const MAX_AMOUNT_MINOR = 10_000_000_000n;

/** An explicit credentialId: a positive integer (JSON number or digit string) within the id column's range, else 1001. */
export function parseCredentialId(fields: RequestFields): number | undefined {
  const value = present(fields, 'credentialId');
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new DomainError('invalid_credential_id', { message: 'credentialId must be a positive integer' });
  const id = Number(value);
  if (id < 1 || id > MAX_CREDENTIAL_ID) throw new DomainError('invalid_credential_id', { message: 'credentialId must be a positive integer' });
  return id;
}

/** `amount`, or its alias `payMoney` only when `amount` is absent: an invalid `amount` never falls back. */
function amount(fields: RequestFields): bigint {
  const field = present(fields, 'amount') !== undefined ? 'amount' : present(fields, 'payMoney') !== undefined ? 'payMoney' : undefined;
  if (field === undefined) throw invalidParameter('amount is required');
  const minor = requirePositiveAmount(present(fields, field)!, field);
  if (minor > MAX_AMOUNT_MINOR) throw invalidParameter(`${field} must be at most 100000000.00`);
  return minor;
}

/** `redirectUrl`, or its alias `returnUrl` when it is absent; each is checked under the name it was sent with. */
function redirectUrl(fields: RequestFields): string | undefined {
  return optionalCallbackUrl(fields, 'redirectUrl') ?? optionalCallbackUrl(fields, 'returnUrl');
}

/**
 * The submit of a channel paid to the merchant's own upstream account (the spec's per-channel variants), field by
 * field; `payMethodOf` is the channel's own payMethod rule.
 */
export function parseDirectSubmit(payMethodOf: (fields: RequestFields) => string, fields: RequestFields): DirectOrderInput {
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const credentialId = parseCredentialId(fields);
  const payMethod = payMethodOf(fields);
  return {
    merchantOrderNo,
    payMethod,
    amountMinor: amount(fields),
    credentialId,
    notifyUrl: requireNotifyUrl(fields),
    redirectUrl: redirectUrl(fields),
    productName: optionalText(fields, 'productName', 127) ?? 'Payment',
    productDesc: optionalText(fields, 'productDesc', 128),
    attach: optionalText(fields, 'attach', 1024),
    clientIp: optionalClientIp(fields),
  };
}
