import type { Database } from '../../db/client';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { formatMinorUnits, parseMinorUnits } from '../../money/decimal-amount';
import type { ChannelRefunds, RefundAttempt, RefundOutcome } from '../../refunds/channel-refunds';
import { signedCall } from './client';
import { alipayConfig } from './config';
import { parseBeijingTime } from './beijing-time';

/**
 * Alipay's refusals of alipay.trade.refund that are final, in words a merchant can act on. Any other sub_code is a
 * final refusal too (answered with Alipay's own code), except ACQ.SYSTEM_ERROR: an unknown outcome.
 */
const FINAL_REFUSALS: Readonly<Record<string, string>> = {
  'ACQ.TRADE_HAS_FINISHED': 'the trade is finished: its refund period is over',
  'ACQ.SELLER_BALANCE_NOT_ENOUGH': "the merchant's Alipay balance is not enough for the refund",
  'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL': 'the refund amount is not the amount Alipay expects for this trade',
  'ACQ.REASON_TRADE_REFUND_FEE_ERR': "the refund would bring the trade's refunds above its total",
  'ACQ.TRADE_NOT_EXIST': 'Alipay has no such trade',
  'ACQ.TRADE_NOT_ALLOW_REFUND': 'Alipay does not allow refunds of this trade',
  'ACQ.TRADE_HAS_CLOSE': 'the trade is closed',
  'ACQ.TRADE_STATUS_ERROR': 'the trade is not in a state that can be refunded',
  'ACQ.NOT_ALLOW_PARTIAL_REFUND': 'Alipay does not allow partial refunds of this trade',
  'ACQ.DISCORDANT_REPEAT_REQUEST': 'Alipay has a refund of this number with another amount',
};

const UNKNOWN_SUBCODES = new Set(['ACQ.SYSTEM_ERROR']);

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

async function credentialFor(db: Database, { order }: RefundAttempt) {
  const credential = await findBoundCredential(db, order);
  if (!credential) throw new Error(`order ${order.orderNo} has no credential to ask Alipay with`);
  return credential;
}

/**
 * alipay.trade.fastpay.refund.query: `refund_status=REFUND_SUCCESS` with this refund's amount is done; no refund data
 * means not received or not done yet (Alipay advises asking 10 s or more after the request).
 */
async function queryRefund(db: Database, attempt: RefundAttempt, accepted: boolean): Promise<RefundOutcome> {
  const answer = await signedCall(alipayConfig(), await credentialFor(db, attempt), 'alipay.trade.fastpay.refund.query', {
    out_trade_no: attempt.order.orderNo,
    out_request_no: attempt.refund.refundNo,
    // gmt_refund_pay is answered only when asked for: when the money went back, the day the bill lists the refund on.
    query_options: ['gmt_refund_pay'],
  });
  if (answer.code !== '10000') {
    const subCode = text(answer.subCode) ?? String(answer.code);
    return { state: 'unknown', reason: `alipay.trade.fastpay.refund.query answered ${subCode}` };
  }
  if (answer.refundStatus === 'REFUND_SUCCESS') {
    const amount = text(answer.refundAmount);
    if (amount !== undefined && parseMinorUnits(amount) !== attempt.refund.amountMinor) {
      return { state: 'unknown', reason: `Alipay reports refund ${attempt.refund.refundNo} of ${amount}, not ${formatMinorUnits(attempt.refund.amountMinor)}` };
    }
    return { state: 'succeeded', upstreamRefundId: text(answer.tradeNo), finishedAt: parseBeijingTime(text(answer.gmtRefundPay)) };
  }
  return accepted ? { state: 'processing' } : { state: 'not_found' };
}

/**
 * alipay.trade.refund with our refund number as out_request_no: 10000 only means accepted; money moved only with
 * fund_change=Y, otherwise the refund query decides. ACQ.SYSTEM_ERROR, a timeout or an unverified answer is an unknown
 * outcome (sent again with the same number and amount by lib/refunds).
 */
async function requestRefund(db: Database, attempt: RefundAttempt): Promise<RefundOutcome> {
  const bizContent: Record<string, string> = {
    out_trade_no: attempt.order.orderNo,
    refund_amount: formatMinorUnits(attempt.refund.amountMinor),
    out_request_no: attempt.refund.refundNo,
  };
  if (attempt.refund.reason) bizContent.refund_reason = attempt.refund.reason;
  let answer: Record<string, unknown>;
  try {
    answer = await signedCall(alipayConfig(), await credentialFor(db, attempt), 'alipay.trade.refund', bizContent);
  } catch (error) {
    return { state: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
  if (answer.code === '10000') {
    if (answer.fundChange === 'Y') return { state: 'succeeded', upstreamRefundId: text(answer.tradeNo), finishedAt: parseBeijingTime(text(answer.gmtRefundPay)) };
    return queryRefund(db, attempt, true);
  }
  const subCode = text(answer.subCode) ?? String(answer.code);
  if (UNKNOWN_SUBCODES.has(subCode)) return { state: 'unknown', reason: `alipay.trade.refund answered ${subCode}` };
  const meaning = FINAL_REFUSALS[subCode] ?? text(answer.subMsg) ?? text(answer.msg) ?? 'refused';
  return { state: 'failed', reason: `${subCode}: ${meaning}` };
}

export const alipayRefunds: ChannelRefunds = {
  offered: true,
  request: requestRefund,
  check: (db, attempt) => queryRefund(db, attempt, attempt.refund.upstreamAccepted),
};
