import { invalidParameter } from '../errors/domain-error';
import { optionalNotifyUrl, optionalText, requireMerchantOrderNo, requirePositiveAmount } from '../validation/field-rules';
import { present, type RequestFields } from '../validation/request-fields';

/** What a refund request asks for, validated. */
export interface RefundRequest {
  merchantOrderNo: string;
  merchantRefundNo: string;
  amountMinor: bigint;
  reason: string | null;
  notifyUrl: string | null;
}

/** Letters, digits and `_-|*@`: what both upstreams accept in a refund number, so that one rule serves every channel. */
const MERCHANT_REFUND_NO = /^[0-9A-Za-z_\-|*@]{1,64}$/;
/** WeChat refuses a reason over 80 characters; the same limit everywhere. */
export const REFUND_REASON_MAX = 80;

export function requireMerchantRefundNo(fields: RequestFields): string {
  const value = present(fields, 'merchantRefundNo');
  if (!value) throw invalidParameter('merchantRefundNo is required');
  if (!MERCHANT_REFUND_NO.test(value)) throw invalidParameter('merchantRefundNo must be 1 to 64 letters, digits or _-|*@');
  return value;
}

/** POST /v1/api/open/refund/submit's fields: each refusal names its field. */
export function parseRefundRequest(fields: RequestFields): RefundRequest {
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const merchantRefundNo = requireMerchantRefundNo(fields);
  const amount = present(fields, 'refundAmount');
  if (!amount) throw invalidParameter('refundAmount is required');
  return {
    merchantOrderNo,
    merchantRefundNo,
    amountMinor: requirePositiveAmount(amount, 'refundAmount'),
    reason: optionalText(fields, 'reason', REFUND_REASON_MAX) ?? null,
    notifyUrl: optionalNotifyUrl(fields) ?? null,
  };
}
