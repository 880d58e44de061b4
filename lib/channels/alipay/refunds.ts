import type { Database } from '../../db/client';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { formatMinorUnits, parseMinorUnits } from '../../money/decimal-amount';
import type { ChannelRefunds, RefundAttempt, RefundOutcome } from '../../refunds/channel-refunds';
import { signedCall } from './client';
import { alipayConfig } from './config';
import { parseBeijingTime } from './beijing-time';

/**
 * Alipay's definitive refusals of alipay.trade.refund: the refund was not made and will not be. Only these fail a
 * refund, and only after the refund query finds no refund of that out_request_no (a retry of a refund whose first
 * answer was lost meets the state that refund left: a full refund closes the trade, ACQ.TRADE_HAS_CLOSE). Anything
 * else (20000 isp.unknow-error / aop.unknow-error / aop.ACQ.SYSTEM_ERROR, ACQ.SYSTEM_ERROR, a code not listed here, a
 * timeout, an answer whose signature does not verify) is an unknown outcome: asked about with
 * alipay.trade.fastpay.refund.query and sent again with the same out_request_no and amount.
 * Source of every entry: the error codes of alipay.trade.refund, https://opendocs.alipay.com/open/02e7go
 * (统一收单交易退款接口, 业务错误码), each listed there with "检查…/联系…", never "重试".
 */
const DEFINITIVE_REFUSALS: Readonly<Record<string, string>> = {
  // 交易已完结: 该交易已完结，不允许进行退款
  'ACQ.TRADE_HAS_FINISHED': 'the trade is finished: its refund period is over',
  // 卖家余额不足: 商户支付宝账户充值后重新发起退款即可
  'ACQ.SELLER_BALANCE_NOT_ENOUGH': "the merchant's Alipay balance is not enough for the refund",
  // 退款金额超限: 检查退款金额是否正确，重新修改请求后，重新发起退款
  'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL': 'the refund amount is not the amount Alipay expects for this trade',
  // 退款金额无效: 检查退款金额（退款总额不能超过交易金额）
  'ACQ.REASON_TRADE_REFUND_FEE_ERR': "the refund would bring the trade's refunds above its total",
  // 交易退款金额有误: 请检查传入的退款金额是否正确
  'ACQ.REFUND_FEE_ERROR': 'Alipay finds the refund amount wrong',
  // 不一致的请求: 检查该退款号是否已退过款或更换退款号重新发起请求
  'ACQ.DISCORDANT_REPEAT_REQUEST': 'Alipay has a refund of this number with another amount',
  // 交易不存在: 检查请求中的交易号和商户订单号是否正确
  'ACQ.TRADE_NOT_EXIST': 'Alipay has no such trade',
  // 当前交易不允许退款: 检查当前交易的状态是否为交易成功状态以及签约的退款属性是否允许退款
  'ACQ.TRADE_NOT_ALLOW_REFUND': 'Alipay does not allow refunds of this trade',
  // 交易已经关闭: 该交易已关闭，不允许退款 (a full refund closes the trade too: the query comes first)
  'ACQ.TRADE_HAS_CLOSE': 'the trade is closed',
  // 交易状态非法: 查询交易，确认交易是否已经付款
  'ACQ.TRADE_STATUS_ERROR': 'the trade is not in a state that can be refunded',
  // 请求退款的交易被冻结: 联系支付宝小二，确认该笔交易的具体情况
  'ACQ.REASON_TRADE_BEEN_FREEZEN': 'Alipay has frozen the trade',
  // 不允许部分退款 (the product contract allows only full refunds)
  'ACQ.NOT_ALLOW_PARTIAL_REFUND': 'Alipay does not allow partial refunds of this trade',
  // 参数无效: 请求参数有错，重新检查请求后，再调用退款
  'ACQ.INVALID_PARAMETER': 'Alipay finds a parameter of the refund invalid',
};

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
 * fund_change=Y, otherwise the refund query decides. A definitive refusal fails the refund only when the refund query
 * confirms that no refund of this number was made; every other answer is an unknown outcome (sent again with the
 * same number and amount by lib/refunds, then asked about by the poller).
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
  const meaning = answer.code === '40004' ? DEFINITIVE_REFUSALS[subCode] : undefined;
  if (meaning === undefined) return { state: 'unknown', reason: `alipay.trade.refund answered ${String(answer.code)} ${subCode}: an unknown outcome, asked about again` };
  let confirmed: RefundOutcome;
  try {
    confirmed = await queryRefund(db, attempt, attempt.refund.upstreamAccepted);
  } catch (error) {
    confirmed = { state: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
  if (confirmed.state !== 'not_found') {
    return confirmed.state === 'unknown' ? { state: 'unknown', reason: `alipay.trade.refund answered ${subCode}, not confirmed by the refund query: ${confirmed.reason}` } : confirmed;
  }
  return { state: 'failed', reason: `${subCode}: ${meaning}` };
}

export const alipayRefunds: ChannelRefunds = {
  offered: true,
  request: requestRefund,
  check: (db, attempt) => queryRefund(db, attempt, attempt.refund.upstreamAccepted),
};
