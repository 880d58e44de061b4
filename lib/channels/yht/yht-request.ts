import { invalidParameter } from '../../errors/domain-error';
import { optionalCallbackUrl, optionalClientIp, optionalText, requireNotifyUrl, requireMerchantOrderNo, requirePositiveAmount } from '../../validation/field-rules';
import { present, type RequestFields } from '../../validation/request-fields';
import { isYhtPayMethod, YHT_PAY_METHODS } from './protocol';
import type { DirectOrderInput } from '../../orders/create-direct-order';

/** The YHT variant of submit: payType and channel fixed 'YHT', payMethod from the contract's list, payMoney in CNY. */
export function parseYhtSubmit(fields: RequestFields): DirectOrderInput {
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const channel = present(fields, 'channel');
  if (channel === undefined) throw invalidParameter('channel is required');
  if (channel !== 'YHT') throw invalidParameter('channel must be YHT');
  const payMethod = present(fields, 'payMethod');
  if (payMethod === undefined) throw invalidParameter('payMethod is required');
  if (!isYhtPayMethod(payMethod)) throw invalidParameter(`payMethod must be one of ${YHT_PAY_METHODS.join(', ')}`);
  // Accepted on every fiat channel and checked alike; YHT's order API has no field for the payer's address.
  optionalClientIp(fields);
  const payMoney = present(fields, 'payMoney');
  if (payMoney === undefined) throw invalidParameter('payMoney is required');
  return {
    merchantOrderNo,
    payMethod,
    amountMinor: requirePositiveAmount(payMoney, 'payMoney'),
    notifyUrl: requireNotifyUrl(fields),
    redirectUrl: optionalCallbackUrl(fields, 'redirectUrl'),
    productName: optionalText(fields, 'productName', 128),
    attach: optionalText(fields, 'attach', 1024),
  };
}
