import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { confirmStepUp } from '../accounts/step-up';
import { invalidParameter } from '../errors/domain-error';
import { notificationAttempts, notifications, refunds } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { refundsOfOrder } from '../channels/open-api-refunds';
import { refundStanding } from '../orders/order-standing';
import { recordWalletRefund } from '../refunds/record-wallet-refund';
import { REFUND_REASON_MAX } from '../refunds/refund-request';
import { submitRefund } from '../refunds/submit-refund';
import { parseAbnormalRemedy, remedyAbnormalRefund } from '../refunds/remedy-abnormal';
import { latePaymentOf, latePaymentRefundNo, refundLatePayment } from '../refunds/late-payment-refund';
import { requirePositiveAmount } from '../validation/field-rules';
import { findMerchantOrder } from './merchant-order-detail';
import { portalActor, type MerchantContext } from './merchant-context';

/** An order's refunds, oldest first, each with its notice's delivery (the latest cycle) and attempts. */
export async function listOrderRefunds(db: Database, context: MerchantContext, orderNo: string) {
  const order = await findMerchantOrder(db, context, orderNo);
  const rows = await db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.id));
  const notices = rows.length
    ? await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.orderId, order.id), eq(notifications.kind, 'refund'), inArray(notifications.subject, rows.map((row) => String(row.id)))))
        .orderBy(asc(notifications.cycle))
    : [];
  const attempts = notices.length ? await db.select().from(notificationAttempts).where(inArray(notificationAttempts.notificationId, notices.map((notice) => notice.id))) : [];
  const channel = refundsOfOrder(order);
  const remedyOffered = channel.offered && channel.abnormalRemedy !== undefined;
  const late = await latePaymentOf(db, order);
  return {
    /** A payment the upstream took after the order was closed here: never credited, refundable in one action. */
    latePayment: late
      ? { tradeNo: late.tradeNo, receivedAt: late.receivedAt, amount: formatMinorUnits(order.payAmountMinor), refundable: channel.offered && !rows.some((row) => row.merchantRefundNo === latePaymentRefundNo(order.orderNo)) }
      : null,
    refundable: channel.offered,
    refundedAmount: formatMinorUnits(order.refundedMinor),
    leftAmount: formatMinorUnits(order.payAmountMinor - order.refundReservedMinor),
    /** What is left to refund: everything refunded already, the rest being refunded now, or some of it still to refund. */
    remainder: order.refundReservedMinor < order.payAmountMinor ? ('some' as const) : refundStanding(order) === 'refunded' ? ('refunded' as const) : ('processing' as const),
    refunds: rows.map((row) => {
      const notice = notices.filter((cycle) => cycle.subject === String(row.id)).at(-1);
      return {
        refundNo: row.refundNo,
        merchantRefundNo: row.merchantRefundNo,
        amount: formatMinorUnits(row.amountMinor),
        state: row.state,
        reason: row.reason,
        failureReason: row.failureReason,
        upstreamRefundId: row.upstreamRefundId,
        createdBy: row.createdBy,
        createdAt: row.createdAt,
        finishedAt: row.finishedAt,
        /** An abnormal refund waits for the merchant's remedy (WeChat Pay's apply-abnormal-refund). */
        remedy: row.state === 'abnormal' && remedyOffered,
        notice: notice
          ? { status: notice.status, attempts: attempts.filter((attempt) => attempt.notificationId === notice.id).map(({ attemptNo, outcome, httpStatus, error }) => ({ attemptNo, outcome, httpStatus, error })) }
          : null,
      };
    }),
  };
}

function checkReason(text: string): string | null {
  const trimmed = text.trim();
  if ([...trimmed].length > REFUND_REASON_MAX) throw invalidParameter(`reason must be at most ${REFUND_REASON_MAX} characters`);
  return trimmed === '' ? null : trimmed;
}

/** The merchant refunds part of a paid order from the portal, the step-up first; the same path as the open API. */
export async function refundFromPortal(db: Database, context: MerchantContext, input: { orderNo: string; amount: string; reason: string; password: string; now: Date }) {
  const amountMinor = requirePositiveAmount(input.amount.trim(), 'amount');
  const reason = checkReason(input.reason);
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  const order = await findMerchantOrder(db, context, input.orderNo);
  const request = { merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `P${input.now.getTime()}${Math.floor(Math.random() * 1e6)}`, amountMinor, reason, notifyUrl: null };
  return submitRefund(db, { merchantId: context.merchantId, request, channelOf: refundsOfOrder, actor: portalActor(context), now: input.now });
}

/**
 * The merchant applies WeChat Pay's remedy to one of the order's abnormal refunds (to the payer's bank card, or back
 * to its own bank account), the step-up first; the payer's bank details go to WeChat Pay encrypted and are
 * kept nowhere here.
 */
export async function remedyAbnormalFromPortal(
  db: Database,
  context: MerchantContext,
  input: { orderNo: string; refundNo: string; type: string; bankType: string; bankAccount: string; realName: string; password: string; now: Date },
) {
  const order = await findMerchantOrder(db, context, input.orderNo);
  // Read by the rules of the order's channel (its upstream's bank codes), before the step-up is asked.
  const remedy = parseAbnormalRemedy(order, refundsOfOrder, input);
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  const [refund] = await db.select({ orderId: refunds.orderId }).from(refunds).where(and(eq(refunds.refundNo, input.refundNo), eq(refunds.orderId, order.id)));
  if (!refund) throw invalidParameter(`refund ${input.refundNo} is not a refund of order ${order.orderNo}`);
  return remedyAbnormalRefund(db, { merchantId: context.merchantId, refundNo: input.refundNo, remedy, channelOf: refundsOfOrder, actor: portalActor(context), now: input.now });
}

/** The merchant refunds, in full, a payment that arrived after the order was closed; the step-up first. */
export async function refundLatePaymentFromPortal(db: Database, context: MerchantContext, input: { orderNo: string; password: string; now: Date }) {
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  const order = await findMerchantOrder(db, context, input.orderNo);
  return refundLatePayment(db, { merchantId: context.merchantId, orderNo: order.orderNo, channelOf: refundsOfOrder, actor: portalActor(context), now: input.now });
}

/** The merchant records a USDT refund it sent from its own wallet; the step-up first. */
export async function recordWalletRefundFromPortal(
  db: Database,
  context: MerchantContext,
  input: { orderNo: string; amount: string; transactionId: string; note: string; password: string; now: Date },
) {
  const amountMinor = requirePositiveAmount(input.amount.trim(), 'amount');
  const note = checkReason(input.note);
  await confirmStepUp(db, { accountId: context.accountId, sessionId: context.sessionId, answer: input.password, now: input.now });
  return recordWalletRefund(db, { merchantId: context.merchantId, orderNo: input.orderNo, amountMinor, transactionId: input.transactionId, note, actor: portalActor(context), now: input.now });
}
