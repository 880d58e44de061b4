import type { OrderRow, RefundRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';

type ViewedOrder = Pick<OrderRow, 'orderNo' | 'merchantOrderNo' | 'channel' | 'refundedMinor'>;

/** A refund as the open API answers it (submit and query alike). */
export function refundData(refund: RefundRow, order: ViewedOrder) {
  return {
    refundNo: refund.refundNo,
    merchantRefundNo: refund.merchantRefundNo,
    platformOrderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo,
    payType: order.channel,
    refundAmount: formatMinorUnits(refund.amountMinor),
    status: refund.state,
    failureReason: refund.failureReason,
    upstreamRefundId: refund.upstreamRefundId,
    refundedAmount: formatMinorUnits(order.refundedMinor),
    createTime: Math.floor(refund.createdAt.getTime() / 1000),
    finishTime: refund.finishedAt ? Math.floor(refund.finishedAt.getTime() / 1000) : null,
  };
}

/**
 * The refund notice's form (without appId and signature, added at each attempt): `notifyType=refund` and the final
 * status, so that it cannot be read as a payment.
 */
export function refundNoticeFields(refund: RefundRow, order: ViewedOrder): Record<string, string> {
  const { refundNo, merchantRefundNo, platformOrderNo, merchantOrderNo, payType, refundAmount, refundedAmount, status, failureReason, finishTime } = refundData(refund, order);
  return {
    notifyType: 'refund',
    refundNo,
    merchantRefundNo,
    platformOrderNo,
    merchantOrderNo,
    payType,
    refundAmount,
    refundedAmount,
    status,
    failureReason: failureReason ?? '',
    finishTime: finishTime === null ? '' : String(finishTime),
  };
}
