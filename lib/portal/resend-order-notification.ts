import type { Database } from '../db/client';
import { actionRefused } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { resendNotification } from '../orders/resend-notification';
import { findMerchantOrder } from './merchant-order-detail';
import { portalActor, type MerchantContext } from './merchant-context';

/**
 * Re-sends the payment notification of one of the context merchant's paid orders (a new delivery cycle). The
 * notifier's own refusals are DomainErrors too and reach the portal's form unchanged.
 */
export async function resendOrderNotification(db: Database, context: MerchantContext, input: { orderNo: string; now: Date }) {
  const order = await findMerchantOrder(db, context, input.orderNo);
  if (order.status !== 'paid') throw actionRefused('only a paid order has a notification to re-send', domainMessage('orders.resendNeedsPaid'));
  return resendNotification(db, { appId: context.appId, merchantOrderNo: order.merchantOrderNo, actor: portalActor(context), now: input.now });
}
