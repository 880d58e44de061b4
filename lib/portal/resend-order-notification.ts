import type { Database } from '../db/client';
import { resendNotification } from '../notifications/resend-notification';
import { OperatorActionRefused } from '../orders/operator-errors';
import { findMerchantOrder } from './merchant-order-detail';
import { portalActor, type MerchantContext } from './merchant-context';
import { PortalActionRefused } from './portal-errors';

/** Re-sends the payment notification of one of the context merchant's paid orders (a new delivery cycle). */
export async function resendOrderNotification(db: Database, context: MerchantContext, input: { orderNo: string; now: Date }) {
  const order = await findMerchantOrder(db, context, input.orderNo);
  if (order.status !== 'paid') throw new PortalActionRefused('Only a paid order has a notification to re-send / 仅已支付订单可重发通知');
  try {
    return await resendNotification(db, { appId: context.appId, merchantOrderNo: order.merchantOrderNo, actor: portalActor(context), now: input.now });
  } catch (error) {
    if (error instanceof OperatorActionRefused) throw new PortalActionRefused(error.message);
    throw error;
  }
}
