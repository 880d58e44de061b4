import { DomainError } from '../errors/domain-error';
import { closeOrder } from '../orders/close-order';
import { findMerchantOrder } from '../orders/find-order';
import { queryAnswerOf, queryOrder } from '../orders/query-order';
import { submitOrder } from '../orders/submit-order';
import { requireMerchantOrderNo } from '../validation/field-rules';
import { present, type RequestFields } from '../validation/request-fields';
import { DEFAULT_CHANNEL } from './channel-names';
import { success, type SignedRequest, type SuccessAnswer } from '../validation/signed-request';
import { channelNamed, channelOf } from '.';

/**
 * The open API's order operations, composed at the registry: the request's payType names the channel (absent: USDT),
 * the order domain is handed that channel, and the answer carries the channel's success message. lib/api serves them;
 * the portal's test order submits through the same one.
 */

/** POST /v1/api/open/order/submit. */
export async function submitByPayType(request: SignedRequest): Promise<SuccessAnswer> {
  const channel = channelOf(request.fields);
  return success(channel.successMessage, await submitOrder(channel, request));
}

/** Whether a submit may authenticate from the merchant's remembered row: when its channel confirms it (an unknown payType reads the row). */
export function submitRemembersMerchant(fields: RequestFields): boolean {
  const name = present(fields, 'payType') ?? DEFAULT_CHANNEL;
  return channelNamed(name)?.submitConfirmsMerchant === true;
}

/** POST /v1/api/open/order/query: payType absent reads the default channel's orders, else that channel's. */
export async function queryByPayType({ db, merchant, fields, merchantCheck }: SignedRequest): Promise<SuccessAnswer> {
  const channel = channelOf(fields);
  const merchantOrderNo = requireMerchantOrderNo(fields);
  return success(channel.successMessage, await queryOrder(db, channel, merchant.id, merchantOrderNo, merchantCheck));
}

/**
 * POST /v1/api/open/order/close: the merchant's order, whatever its channel (payType, when sent, must be the order's:
 * another channel's order is 1006, as in the query). Answers the order's query data, closed.
 */
export async function closeByMerchantOrderNo({ db, merchant, fields }: SignedRequest): Promise<SuccessAnswer> {
  const merchantOrderNo = requireMerchantOrderNo(fields);
  const scope = fields.payType === undefined ? undefined : channelOf(fields);
  const order = await findMerchantOrder(db, merchant.id, merchantOrderNo);
  const channel = order && channelNamed(order.channel);
  if (!order || !channel || (scope && scope !== channel)) throw new DomainError('order_not_found');
  const closed = await closeOrder(db, channel, order, { actor: `merchant-api:${merchant.appId}`, now: new Date() });
  return success(channel.successMessage, queryAnswerOf(channel, closed));
}
