import { DomainError } from '../errors/domain-error';
import { success, type SignedRequest, type SuccessAnswer } from '../validation/signed-request';
import { channelOf } from '../channels';

/** POST /v1/api/open/order/submit: the channel named by payType parses, validates and creates. */
export async function submitOrder(context: SignedRequest): Promise<SuccessAnswer> {
  const channel = channelOf(context.fields);
  if (!context.merchant.orderPermission) throw new DomainError('order_permission_disabled');
  return success(channel.successMessage, await channel.submit(context));
}
