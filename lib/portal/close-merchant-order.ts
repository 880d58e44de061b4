import { channelNamed } from '../channels';
import type { Database } from '../db/client';
import { closeOrder } from '../orders/close-order';
import { findMerchantOrder } from './merchant-order-detail';
import { portalActor, type MerchantContext } from './merchant-context';

/** The portal's close of one of the context merchant's orders: the same close as the open API's, audited as the signed-in account. */
export async function closeMerchantOrder(db: Database, context: MerchantContext, input: { orderNo: string; now: Date }) {
  const order = await findMerchantOrder(db, context, input.orderNo);
  const channel = channelNamed(order.channel);
  if (!channel) throw new Error(`order ${order.orderNo} has no known channel (${order.channel})`);
  return closeOrder(db, channel, order, { actor: portalActor(context), now: input.now });
}
