import { invalidParameter } from '../../errors/domain-error';
import { optionalCallbackUrl, optionalText, requireNotifyUrl, requireMerchantOrderNo, requirePositiveAmount } from '../../validation/field-rules';
import { present, type RequestFields } from '../../validation/request-fields';
import type { UsdtOrderInput } from './insert-on-free-slots';
import { DEFAULT_CHAIN_TYPE, describeChainTypes, isUsdtChainEnabled, usdtChainByType } from './usdt-chains';


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
  const chainType = present(fields, 'chainType') ?? DEFAULT_CHAIN_TYPE;
  const chain = usdtChainByType(chainType);
  if (!chain) throw invalidParameter(`chainType must be one of ${describeChainTypes()}`);
  if (!isUsdtChainEnabled(chain)) throw invalidParameter(`chainType ${chainType} (${chain.name}) is not enabled on this service`);
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
