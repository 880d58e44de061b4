import { successEnvelope, type Envelope } from '../api/error-codes';
import { OpenApiError } from '../api/errors';
import { channelOf, requireMerchantOrderNo } from '../api/field-rules';
import type { OpenApiContext } from '../api/open-api-route';
import { directQueryData } from './direct-view';
import { findQueriedOrder } from './find-order';
import { usdtQueryData } from './usdt-view';
import { yhtQueryData } from './yht-view';

/** POST /v1/api/open/order/query: payType absent (or USDT) reads USDT orders, ALIPAY/WECHAT/YHT that channel's; another channel's order is 1006. */
export async function queryOrder({ db, merchant, fields }: OpenApiContext): Promise<Envelope> {
  const channel = channelOf(fields);
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const order = await findQueriedOrder(db, merchant.id, merchantOrderNo);
  if (!order || order.channel !== channel) throw new OpenApiError('order_not_found');
  switch (order.channel) {
    case 'ALIPAY':
    case 'WECHAT':
      return successEnvelope('ok', directQueryData(order));
    case 'YHT':
      return successEnvelope('success', yhtQueryData(order));
    default:
      return successEnvelope('success', usdtQueryData(order));
  }
}
