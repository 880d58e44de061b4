import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { parseMinorUnits } from '../../money/decimal-amount';
import { markOrderPaid } from '../../orders/order-status';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';
import { parseBeijingTime } from './beijing-time';
import { alipayVerifierFor } from './client';

/** Alipay stops notifying once the body is exactly `success`; anything else is retried (8 times over 25 h). */
export const ALIPAY_NOTIFY_ACK = 'success';
export const ALIPAY_NOTIFY_NACK = 'fail';

export interface NotifyOutcome {
  answer: typeof ALIPAY_NOTIFY_ACK | typeof ALIPAY_NOTIFY_NACK;
  verdict: CallbackVerdict;
  detail?: string;
}

/** Genuine and fully handled: Alipay may stop. A late payment is recorded for the operator and acknowledged too. */
const ACKNOWLEDGED: ReadonlySet<CallbackVerdict> = new Set(['paid', 'duplicate', 'ignored', 'late_payment']);
const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);


function parseForm(rawBody: string): Record<string, string> | undefined {
  if (rawBody.trim() === '') return undefined;
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(rawBody)) {
    if (name in fields) return undefined; // a field given twice: which one was signed?
    fields[name] = value;
  }
  return fields;
}

/** When Alipay says the payer paid (gmt_payment, Beijing time), if readable and not in the future; else now. */
export function alipayPaymentTime(gmtPayment: string | undefined, now: Date): Date {
  const stated = parseBeijingTime(gmtPayment);
  return stated && stated.getTime() <= now.getTime() + 60_000 ? stated : now;
}

type Decision = Omit<NotifyOutcome, 'answer'> & { orderId?: number };

async function decide(db: Database, fields: Record<string, string>, now: Date): Promise<Decision> {
  const outTradeNo = fields.out_trade_no!;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, outTradeNo), eq(orders.channel, 'ALIPAY')))
    .for('update')
    .limit(1);
  if (!order) return { verdict: 'unknown_order', detail: `no ALIPAY order ${outTradeNo.slice(0, 64)}` };
  const credential = await findBoundCredential(db, order);
  if (!credential?.upstreamPublicKey) return { orderId: order.id, verdict: 'bad_signature', detail: 'the order has no credential with an Alipay public key' };
  // The SDK's own verification of a notification (values as decoded from the form, not decoded again).
  if (!alipayVerifierFor(credential).checkNotifySignV2(fields)) {
    return { orderId: order.id, verdict: 'bad_signature', detail: fields.sign ? 'RSA2 signature does not verify with the Alipay public key' : 'no sign field' };
  }
  if (fields.app_id !== credential.upstreamAppId) {
    return { orderId: order.id, verdict: 'wrong_merchant', detail: `app_id ${String(fields.app_id).slice(0, 32)} is not the credential's ${credential.upstreamAppId}` };
  }
  // Alipay's verification guide: when the merchant's own Alipay user id is known, the notification must name it.
  if (credential.sellerId && fields.seller_id !== credential.sellerId) {
    return { orderId: order.id, verdict: 'wrong_merchant', detail: `seller_id ${String(fields.seller_id).slice(0, 32)} is not the credential's ${credential.sellerId}` };
  }
  const amountMinor = fields.total_amount === undefined ? undefined : parseMinorUnits(fields.total_amount);
  if (amountMinor !== order.payAmountMinor) {
    return { orderId: order.id, verdict: 'amount_mismatch', detail: `total_amount ${String(fields.total_amount).slice(0, 32)} differs from the order's` };
  }
  const status = fields.trade_status ?? '';
  if (!PAID_STATES.has(status)) return { orderId: order.id, verdict: 'ignored', detail: `trade_status ${status.slice(0, 32)}` };
  if (order.status === 'paid') {
    if (order.tradeNo && order.tradeNo !== fields.trade_no) {
      return { orderId: order.id, verdict: 'trade_no_mismatch', detail: `paid by trade ${order.tradeNo}, notified trade ${String(fields.trade_no).slice(0, 64)}` };
    }
    return { orderId: order.id, verdict: 'duplicate', detail: `already paid via ${order.paidVia ?? 'unknown'}` };
  }
  const paidAt = alipayPaymentTime(fields.gmt_payment, now);
  // The window ends when the poller has closed the trade at Alipay (alipay.trade.close), not at time_expire, which page
  // pay may not honour: a payment Alipay accepted for an order still pending here is this order's, however late.
  if (order.status === 'closed') {
    return { orderId: order.id, verdict: 'late_payment', detail: `paid at ${paidAt.toISOString()} after the order was closed (window ended ${order.expiresAt.toISOString()}); for the operator` };
  }
  const marked = await markOrderPaid(db, { orderId: order.id, via: 'alipay-notify', paidAt, tradeNo: fields.trade_no, payer: fields.buyer_logon_id || fields.buyer_id || undefined });
  return marked.changed ? { orderId: order.id, verdict: 'paid' } : { orderId: order.id, verdict: 'duplicate' };
}

/**
 * Alipay's asynchronous notification (POST form to /v1/api/callback/alipay), verified on the decoded form: the order
 * by out_trade_no, the RSA2 signature with the bound credential's Alipay public key, the app id, the seller (when
 * the credential records it) and the amount.
 * Marks the order paid once (the merchant's notification is queued in the same transaction) and records every
 * notification with its verdict; the route answers `success` only to a genuine one that is handled.
 */
export async function receiveAlipayNotify(db: Database, rawBody: string, now: Date): Promise<NotifyOutcome> {
  const fields = parseForm(rawBody);
  const decision = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const decided: Decision = !fields
      ? { verdict: 'malformed', detail: 'not a form body, or a field given twice' }
      : !fields.out_trade_no
        ? { verdict: 'malformed', detail: 'out_trade_no is required' }
        : await decide(tx, fields, now);
    await recordUpstreamCallback(tx, {
      channel: 'ALIPAY',
      receivedAt: now,
      rawBody,
      outTradeNo: fields?.out_trade_no,
      tradeNo: fields?.trade_no,
      orderId: decided.orderId,
      verdict: decided.verdict,
      detail: decided.detail,
      answer: ACKNOWLEDGED.has(decided.verdict) ? ALIPAY_NOTIFY_ACK : ALIPAY_NOTIFY_NACK,
    });
    return decided;
  });
  return { answer: ACKNOWLEDGED.has(decision.verdict) ? ALIPAY_NOTIFY_ACK : ALIPAY_NOTIFY_NACK, verdict: decision.verdict, detail: decision.detail };
}
