import { OpenApiError, invalidParameter } from '../api/errors';
import { optionalCallbackUrl, optionalClientIp, optionalText, requireNotifyUrl, requireMerchantOrderNo, requirePositiveAmount } from '../api/field-rules';
import { present, type RequestFields } from '../api/request-fields';
import type { DirectChannelName } from '../channels/direct/direct-channel';

export interface DirectOrderInput {
  merchantOrderNo: string;
  /** ALIPAY: 'web' | 'wap'. WECHAT: 'native' | 'h5'. */
  payMethod: string;
  amountMinor: bigint;
  /** Present only when the merchant sent it (idempotency rule 2 compares it then). */
  credentialId?: number;
  notifyUrl: string;
  redirectUrl?: string;
  productName: string;
  productDesc?: string;
  attach?: string;
  /** The payer's IP as the merchant sent it (WECHAT h5 `payer_client_ip`); absent: the submit request's address. */
  clientIp?: string;
}

export const MAX_CREDENTIAL_ID = 2_147_483_647;
/** Alipay's and WeChat Pay's ceiling for one payment: 100,000,000.00 yuan. */
const MAX_AMOUNT_MINOR = 10_000_000_000n;

/** An explicit credentialId: a positive integer (JSON number or digit string) within the id column's range, else 1001. */
export function parseCredentialId(fields: RequestFields): number | undefined {
  const value = present(fields, 'credentialId');
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new OpenApiError('invalid_credential_id', 'credentialId must be a positive integer');
  const id = Number(value);
  if (id < 1 || id > MAX_CREDENTIAL_ID) throw new OpenApiError('invalid_credential_id', 'credentialId must be a positive integer');
  return id;
}

/** ALIPAY: 'web' (PC website) or 'wap' (mobile website), else 1001 as the contract fixes it. */
function alipayPayMethod(fields: RequestFields): string {
  const value = present(fields, 'payMethod');
  if (value !== 'web' && value !== 'wap') throw new OpenApiError('invalid_pay_method');
  return value;
}

/** WECHAT: 'native' (PC QR code) or 'h5' (mobile browser); JSAPI, mini-program and in-app payments are not offered. */
function wechatPayMethod(fields: RequestFields): string {
  const value = present(fields, 'payMethod');
  if (value === undefined) throw invalidParameter('payMethod is required');
  if (value !== 'native' && value !== 'h5') throw invalidParameter('payMethod must be native or h5');
  return value;
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

/** The ALIPAY and WECHAT variants of submit (spec "Variant ALIPAY", "Variant WECHAT"), field by field. */
export function parseDirectSubmit(channel: DirectChannelName, fields: RequestFields): DirectOrderInput {
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const credentialId = parseCredentialId(fields);
  const payMethod = channel === 'ALIPAY' ? alipayPayMethod(fields) : wechatPayMethod(fields);
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
