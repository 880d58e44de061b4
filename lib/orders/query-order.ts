import { DomainError } from '../errors/domain-error';
import { requireMerchantOrderNo } from '../validation/field-rules';
import { success, type SignedRequest, type SuccessAnswer } from '../validation/signed-request';
import { channelOf } from '../channels';
import { findQueriedOrder } from './find-order';

/** POST /v1/api/open/order/query: payType absent reads the default channel's orders, else that channel's; another channel's order is 1006. */
export async function queryOrder({ db, merchant, fields }: SignedRequest): Promise<SuccessAnswer> {
  const channel = channelOf(fields);
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const order = await findQueriedOrder(db, merchant.id, merchantOrderNo);
  if (!order || order.channel !== channel.name) throw new DomainError('order_not_found');
  return success(channel.successMessage, channel.queryData(order));
}
