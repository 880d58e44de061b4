import { successEnvelope, type Envelope } from '../api/error-codes';
import { OpenApiError, invalidParameter } from '../api/errors';
import { channelOf } from '../api/field-rules';
import type { OpenApiContext } from '../api/open-api-route';
import { directChannelAdapter } from '../channels/direct/adapters';
import { createDirectOrder } from './create-direct-order';
import { parseDirectSubmit } from './direct-request';
import { directCreateData } from './direct-view';
import { createUsdtOrder } from './create-usdt-order';
import { createYhtOrder } from './create-yht-order';
import { parseUsdtSubmit } from './usdt-request';
import { usdtCreateData } from './usdt-view';
import { parseYhtSubmit } from './yht-request';
import { yhtCreateData } from './yht-view';

/** POST /v1/api/open/order/submit, by channel. */
export async function submitOrder({ db, merchant, fields, clientAddress }: OpenApiContext): Promise<Envelope> {
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
    case 'ALIPAY':
    case 'WECHAT': {
      const adapter = directChannelAdapter(channel);
      if (!adapter) break;
      const created = await createDirectOrder(db, merchant.id, adapter, parseDirectSubmit(channel, fields), { clientIp: clientAddress });
      return successEnvelope('ok', directCreateData(adapter, created));
    }
  }
  throw invalidParameter(`payType ${channel} is not available on this service yet`);
}
