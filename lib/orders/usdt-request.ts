import { invalidParameter } from '../api/errors';
import { optionalCallbackUrl, optionalText, requireNotifyUrl, requireMerchantOrderNo, requirePositiveAmount } from '../api/field-rules';
import { present, type RequestFields } from '../api/request-fields';
import type { UsdtOrderInput } from './create-usdt-order';

const TRC20 = '1';

/** pay_usdt wins over the legacy payMoney; an invalid pay_usdt is an error, never a fallback to payMoney. */
function usdtAmount(fields: RequestFields): bigint {
  const payUsdt = present(fields, 'pay_usdt');
  if (payUsdt !== undefined) return requirePositiveAmount(payUsdt, 'pay_usdt');
  const payMoney = present(fields, 'payMoney');
  if (payMoney !== undefined) return requirePositiveAmount(payMoney, 'payMoney');
  throw invalidParameter('pay_usdt is required');
}

export function parseUsdtSubmit(fields: RequestFields): UsdtOrderInput {
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const chainType = present(fields, 'chainType') ?? TRC20;
  if (chainType !== TRC20) throw invalidParameter('chainType must be 1 (TRC20)');
  return {
    merchantOrderNo,
    amountMinor: usdtAmount(fields),
    chainType,
    notifyUrl: requireNotifyUrl(fields),
    redirectUrl: optionalCallbackUrl(fields, 'redirectUrl'),
    productName: optionalText(fields, 'productName', 128),
    attach: optionalText(fields, 'attach', 1024),
  };
}
