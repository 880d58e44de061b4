import { successEnvelope, type Envelope } from '../api/error-codes';
import { OpenApiError, invalidParameter } from '../api/errors';
import { channelOf } from '../api/field-rules';
import type { OpenApiContext } from '../api/open-api-route';
import { createUsdtOrder } from './create-usdt-order';
import { createYhtOrder } from './create-yht-order';
import { parseUsdtSubmit } from './usdt-request';
import { usdtCreateData } from './usdt-view';
import { parseYhtSubmit } from './yht-request';
import { yhtCreateData } from './yht-view';

/** POST /v1/api/open/order/submit, by channel. */
export async function submitOrder({ db, merchant, fields }: OpenApiContext): Promise<Envelope> {
  const channel = channelOf(fields);
  if (!merchant.orderPermission) throw new OpenApiError('order_permission_disabled');
  switch (channel) {
    case 'USDT': {
      const { order } = await createUsdtOrder(db, merchant.id, parseUsdtSubmit(fields));
      return successEnvelope('success', usdtCreateData(order));
    }
    case 'YHT': {
      const { order } = await createYhtOrder(db, merchant.id, parseYhtSubmit(fields));
      return successEnvelope('success', yhtCreateData(order));
    }
    default:
      throw invalidParameter(`payType ${channel} is not available on this service yet`);
  }
}
