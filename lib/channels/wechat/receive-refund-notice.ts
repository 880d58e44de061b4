import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { orders, refunds } from '../../db/schema';
import { settleRefund } from '../../refunds/settle-refund';
import type { CallbackCandidate } from './callback-credentials';
import type { Decision } from './callback-decision';
import { refundOutcomeOf } from './refunds';

/** The decrypted resource of REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED. */
const refundResourceSchema = z.object({
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  out_refund_no: z.string(),
  refund_id: z.string().optional(),
  refund_status: z.enum(['SUCCESS', 'CLOSED', 'PROCESSING', 'ABNORMAL']),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int(), refund: z.number().int() }).partial().optional(),
});

/**
 * A refund notification (verified and decrypted like a payment's): the refund it names must be ours, of that WECHAT
 * order, bound to the credential whose keys verified and decrypted it; its status settles the refund once (ABNORMAL
 * makes it abnormal, a later SUCCESS or CLOSED settles that).
 */
export async function decideForRefund(db: Database, resource: unknown, decrypting: CallbackCandidate[], now: Date): Promise<Decision> {
  const parsed = refundResourceSchema.safeParse(resource);
  if (!parsed.success) return { verdict: 'malformed', detail: `the decrypted resource is not a refund: ${parsed.error.issues[0]?.path.join('.') ?? ''}` };
  const notice = parsed.data;
  const base = { outTradeNo: notice.out_trade_no, tradeNo: notice.refund_id };
  const [row] = await db
    .select()
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.refundNo, notice.out_refund_no), eq(orders.channel, 'WECHAT')));
  if (!row || row.orders.orderNo !== notice.out_trade_no) return { ...base, verdict: 'unknown_order', detail: `no refund ${notice.out_refund_no.slice(0, 64)} of WECHAT order ${notice.out_trade_no.slice(0, 64)}` };
  const bound = decrypting.find((candidate) => candidate.credentialId === row.orders.credentialId);
  if (!bound || notice.mchid !== bound.mchId) return { ...base, orderId: row.orders.id, verdict: 'wrong_merchant', detail: `the refund's order is bound to credential ${row.orders.credentialId}, not to the keys of this notification` };
  if (notice.amount?.total !== undefined && BigInt(notice.amount.total) !== row.orders.payAmountMinor) {
    return { ...base, orderId: row.orders.id, verdict: 'amount_mismatch', detail: `amount.total ${notice.amount.total} fen differs from the order's ${row.orders.payAmountMinor} fen` };
  }
  const outcome = refundOutcomeOf({ ...notice, status: notice.refund_status }, row.refunds.amountMinor);
  if (outcome.state === 'unknown') return { ...base, orderId: row.orders.id, verdict: 'amount_mismatch', detail: outcome.reason };
  // An abnormal refund is still open: the SUCCESS or CLOSED that follows the merchant's remedy settles it.
  const open = row.refunds.state === 'processing' || (row.refunds.state === 'abnormal' && outcome.state !== 'abnormal');
  if (!open) return { ...base, orderId: row.orders.id, verdict: 'duplicate', detail: `refund ${row.refunds.refundNo} is already ${row.refunds.state}` };
  await settleRefund(db, row.refunds.id, outcome, now);
  return { ...base, orderId: row.orders.id, verdict: 'refund', detail: `refund ${row.refunds.refundNo}: ${notice.refund_status}` };
}
