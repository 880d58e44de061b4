import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { DomainError } from '../errors/domain-error';
import { isUniqueViolation } from '../db/unique-violation';
import { orders, refunds, type OrderRow } from '../db/schema';
import type { ChannelRefunds } from './channel-refunds';
import type { RefundRequest } from './refund-request';
import { reserveRefund, type ReservedRefund } from './reserve-refund';
import { sendRefund } from './send-refund';

/** Two requests with one new merchantRefundNo at once: the one that loses the unique key answers the winner's refund. */
async function reserveOnce(db: Database, input: Parameters<typeof reserveRefund>[1]): Promise<ReservedRefund> {
  try {
    return await reserveRefund(db, input);
  } catch (error) {
    if (!isUniqueViolation(error, 'refunds_merchant_refund_no_key')) throw error;
    return reserveRefund(db, input);
  }
}

/** The refund and its order as they are now. */
export async function currentRefund(db: Database, refundId: number) {
  const [row] = await db.select().from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId)).where(eq(refunds.id, refundId));
  return { refund: row!.refunds, order: row!.orders };
}

/**
 * A merchant's refund: written and reserved first (reserve-refund.ts), then sent upstream and its outcome recorded;
 * the answer is the refund as it stands (processing until the upstream's final word). The same merchantRefundNo
 * again answers the same refund without sending anything.
 */
export async function submitRefund(
  db: Database,
  input: { merchantId: number; request: RefundRequest; channelOf: (order: OrderRow) => ChannelRefunds; actor: string; now?: Date },
) {
  const now = input.now ?? new Date();
  const reserved = await reserveOnce(db, { ...input, now });
  if (reserved.created) {
    const channel = input.channelOf(reserved.order);
    if (channel.offered) await sendRefund(db, channel, reserved.refund.id);
  }
  return currentRefund(db, reserved.refund.id);
}

/** POST /v1/api/open/refund/query: the merchant's refund by its merchantRefundNo. */
export async function findMerchantRefund(db: Database, merchantId: number, merchantRefundNo: string) {
  const [row] = await db
    .select()
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.merchantId, merchantId), eq(refunds.merchantRefundNo, merchantRefundNo)));
  if (!row) throw new DomainError('refund_not_found');
  return { refund: row.refunds, order: row.orders };
}
