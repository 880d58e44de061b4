import { z } from 'zod';
import type { Database } from '../../db/client';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import type { ChannelRefunds, RefundAttempt, RefundOutcome } from '../../refunds/channel-refunds';
import { callWechat, WechatUpstreamError } from './client';
import { wechatConfig } from './config';
import { wechatAccountFor } from './platform-certificates';

/** WeChat Pay refunds an order at most 50 times, and not after a year from its payment. */
export const WECHAT_MAX_REFUNDS_PER_ORDER = 50;
const REFUND_WINDOW_MS = 365 * 24 * 3600_000;

/** A refund as WeChat describes it (the refund's answer, its query and its decrypted notification). */
export const wechatRefundSchema = z.object({
  refund_id: z.string().optional(),
  out_refund_no: z.string(),
  out_trade_no: z.string().optional(),
  status: z.enum(['SUCCESS', 'CLOSED', 'PROCESSING', 'ABNORMAL']).optional(),
  refund_status: z.enum(['SUCCESS', 'CLOSED', 'PROCESSING', 'ABNORMAL']).optional(),
  /** RFC 3339: when the refund succeeded, and when WeChat accepted it (退款受理时间). */
  success_time: z.string().optional(),
  create_time: z.string().optional(),
  amount: z.object({ refund: z.number().int(), total: z.number().int() }).partial().optional(),
});

/** An RFC 3339 time of WeChat's (2020-12-01T16:18:12+08:00), or undefined when it is not one. */
function instantOf(text: string | undefined): Date | undefined {
  if (text === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * What a WeChat refund status means here. CLOSED is final. ABNORMAL is not ("退款异常，退款到银行发现用户的卡作废或者冻
 * 结了，导致原路退款银行卡失败，可前往商户平台-交易中心，手动处理此笔退款", the refund query's status): the money has
 * left the merchant's balance, so the refund is `abnormal`, its amount reserved, until SUCCESS or CLOSED.
 */
export function refundOutcomeOf(refund: z.infer<typeof wechatRefundSchema>, expectedMinor: bigint): RefundOutcome {
  const status = refund.status ?? refund.refund_status;
  if (refund.amount?.refund !== undefined && BigInt(refund.amount.refund) !== expectedMinor) {
    return { state: 'unknown', reason: `WeChat Pay reports refund ${refund.out_refund_no} of ${refund.amount.refund} fen, not ${expectedMinor}` };
  }
  const acceptedAt = instantOf(refund.create_time);
  if (status === 'SUCCESS') return { state: 'succeeded', upstreamRefundId: refund.refund_id, finishedAt: instantOf(refund.success_time), acceptedAt };
  if (status === 'PROCESSING') return { state: 'processing', upstreamRefundId: refund.refund_id, acceptedAt };
  if (status === 'ABNORMAL') {
    return { state: 'abnormal', upstreamRefundId: refund.refund_id, acceptedAt, reason: "ABNORMAL: the payer's card or account could not take the refund; apply WeChat Pay's abnormal-refund remedy" };
  }
  if (status === 'CLOSED') return { state: 'closed', reason: 'CLOSED: WeChat Pay closed the refund' };
  return { state: 'unknown', reason: 'WeChat Pay answered no refund status' };
}

export async function accountFor(db: Database, { order }: Pick<RefundAttempt, 'order'>) {
  const credential = await findBoundCredential(db, order);
  if (!credential) throw new Error(`order ${order.orderNo} has no credential to ask WeChat Pay with`);
  const config = wechatConfig();
  return { config, account: await wechatAccountFor(db, credential, config, new Date()) };
}

/**
 * WeChat Pay's definitive refusals of `POST /v3/refund/domestic/refunds`: the refund was not made. Source: the error
 * codes of 申请退款, https://pay.weixin.qq.com/doc/v3/merchant/4013071036 (also wechatpay-go's refunddomestic). Any
 * other answer (SYSTEM_ERROR "请不要更换商户退款单号，请使用相同参数再次调用API", FREQUENCY_LIMITED, a code not listed,
 * a 5xx, no answer, an answer that does not verify) is an unknown outcome.
 */
const DEFINITIVE_REFUSALS: ReadonlySet<string> = new Set([
  'PARAM_ERROR', // 参数错误: 请根据错误提示正确传入参数
  'INVALID_REQUEST', // 请求参数符合参数格式，但不符合业务规则
  'SIGN_ERROR', // 签名错误: 请检查签名参数和方法是否都符合签名算法要求
  'NOT_ENOUGH', // 余额不足: 此状态代表退款申请失败，商户可根据具体的错误提示进行处理
  'NO_AUTH', // 没有退款权限
  'USER_ACCOUNT_ABNORMAL', // 退款请求失败: 用户帐号注销，商户可自行处理退款
  'MCH_NOT_EXISTS', // 商户号不存在
  'RESOURCE_NOT_EXISTS', // 订单号不存在
]);

/** An error of ours or no answer: unknown; only a documented definitive refusal (4xx) is a refusal. */
function outcomeOfError(error: unknown): RefundOutcome {
  if (!(error instanceof WechatUpstreamError) || error.details.unreachable || error.details.status === undefined || error.details.status >= 500) {
    return { state: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
  if (!DEFINITIVE_REFUSALS.has(String(error.details.code))) return { state: 'unknown', reason: `${error.reason}: an unknown outcome, asked about again` };
  return { state: 'failed', reason: error.reason };
}

/** `POST /v3/refund/domestic/refunds`: our refund number as out_refund_no, amounts in fen with the order's total. */
async function requestRefund(db: Database, attempt: RefundAttempt): Promise<RefundOutcome> {
  try {
    const { config, account } = await accountFor(db, attempt);
    const { json } = await callWechat(config, account, {
      operation: 'refund',
      method: 'POST',
      pathWithQuery: '/v3/refund/domestic/refunds',
      body: {
        out_trade_no: attempt.order.orderNo,
        out_refund_no: attempt.refund.refundNo,
        ...(attempt.refund.reason ? { reason: attempt.refund.reason } : {}),
        notify_url: config.notifyUrl,
        amount: { refund: Number(attempt.refund.amountMinor), total: Number(attempt.order.payAmountMinor), currency: 'CNY' },
      },
    });
    const parsed = wechatRefundSchema.safeParse(json);
    if (!parsed.success || parsed.data.out_refund_no !== attempt.refund.refundNo) return { state: 'unknown', reason: 'WeChat Pay answered no readable refund' };
    return refundOutcomeOf(parsed.data, attempt.refund.amountMinor);
  } catch (error) {
    const outcome = outcomeOfError(error);
    if (outcome.state !== 'failed') return outcome;
    // A refusal is final only when no refund of this number exists (a retry meets the state its first request left).
    const confirmed = await queryRefund(db, attempt);
    if (confirmed.state === 'not_found' && !attempt.refund.upstreamAccepted) return outcome;
    return confirmed.state === 'not_found' ? { state: 'processing' } : confirmed;
  }
}

/** `GET /v3/refund/domestic/refunds/{out_refund_no}`: the fallback when no notification arrives; 404 is a refund never received. */
async function queryRefund(db: Database, attempt: RefundAttempt): Promise<RefundOutcome> {
  try {
    const { config, account } = await accountFor(db, attempt);
    const { json } = await callWechat(config, account, { operation: 'refund_query', method: 'GET', pathWithQuery: `/v3/refund/domestic/refunds/${encodeURIComponent(attempt.refund.refundNo)}` });
    const parsed = wechatRefundSchema.safeParse(json);
    if (!parsed.success || parsed.data.out_refund_no !== attempt.refund.refundNo) return { state: 'unknown', reason: 'WeChat Pay answered no readable refund' };
    return refundOutcomeOf(parsed.data, attempt.refund.amountMinor);
  } catch (error) {
    if (error instanceof WechatUpstreamError && error.details.status === 404) return { state: 'not_found' };
    const outcome = outcomeOfError(error);
    return outcome.state === 'failed' ? { state: 'unknown', reason: outcome.reason } : outcome;
  }
}

export const wechatRefunds: Extract<ChannelRefunds, { offered: true }> = {
  offered: true,
  refuseBefore(order, { refundsSoFar, now }) {
    if (refundsSoFar >= WECHAT_MAX_REFUNDS_PER_ORDER) return `WeChat Pay refunds an order at most ${WECHAT_MAX_REFUNDS_PER_ORDER} times`;
    if (order.paidAt && now.getTime() - order.paidAt.getTime() > REFUND_WINDOW_MS) return 'WeChat Pay refunds nothing more than a year after the payment';
    return undefined;
  },
  request: requestRefund,
  check: queryRefund,
};
