import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { actionRefused } from '../errors/domain-error';
import { orders, refunds, type OrderRow } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import type { AbnormalRefundRemedy, AbnormalRemedy, AbnormalRemedyInput, ChannelRefunds } from './channel-refunds';
import { settleRefund } from './settle-refund';

function abnormalRemedyOf(channel: ChannelRefunds, order: Pick<OrderRow, 'channel'>): AbnormalRefundRemedy {
  if (!channel.offered || !channel.abnormalRemedy) throw actionRefused(`channel ${order.channel} has no remedy for an abnormal refund`);
  return channel.abnormalRemedy;
}

/** The remedy a merchant chose for a refund of the order, read by the rules of the order's channel (its upstream's bank codes…). */
export function parseAbnormalRemedy(order: Pick<OrderRow, 'channel'>, channelOf: (order: Pick<OrderRow, 'channel'>) => ChannelRefunds, input: AbnormalRemedyInput): AbnormalRemedy {
  return abnormalRemedyOf(channelOf(order), order).parse(input);
}

/**
 * The merchant applies the upstream's remedy to one of its abnormal refunds (WeChat Pay's apply-abnormal-refund):
 * the answer is recorded as the refund's new outcome (PROCESSING again, then settled by the notification or the
 * poller); a refusal leaves the refund abnormal and is shown. Both are audited, without the payer's bank details.
 */
export async function remedyAbnormalRefund(
  db: Database,
  input: { merchantId: number; refundNo: string; remedy: AbnormalRemedy; channelOf: (order: OrderRow) => ChannelRefunds; actor: string; now: Date },
) {
  const [row] = await db
    .select()
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.merchantId, input.merchantId), eq(refunds.refundNo, input.refundNo)));
  if (!row) throw actionRefused(`refund ${input.refundNo} not found`);
  if (row.refunds.state !== 'abnormal') throw actionRefused(`refund ${row.refunds.merchantRefundNo} is ${row.refunds.state}: only an abnormal refund has a remedy`);
  const audit = (after: { outcome: string; refusal?: string }) =>
    recordAudit(db, { actor: input.actor, action: 'refund.remedy', subject: `order:${row.orders.orderNo}`, after: { refundNo: row.refunds.refundNo, type: input.remedy.type, ...after } });
  const outcome = await abnormalRemedyOf(input.channelOf(row.orders), row.orders)
    .apply(db, { refund: row.refunds, order: row.orders }, input.remedy)
    .catch(async (error: unknown) => {
      // Refused (or not answered), the refund stays abnormal; the attempt is on record all the same, with the
      // upstream's words (never the payer's bank details, which only the request carried, encrypted).
      await audit({ outcome: 'refused', refusal: (error instanceof Error ? error.message : String(error)).slice(0, 300) });
      throw error;
    });
  await audit({ outcome: outcome.state });
  await settleRefund(db, row.refunds.id, outcome, input.now);
  return outcome;
}
