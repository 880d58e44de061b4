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

/** What a WeChat refund status means here: ABNORMAL (the payer's account cannot take it) and CLOSED are final. */
export function refundOutcomeOf(refund: z.infer<typeof wechatRefundSchema>, expectedMinor: bigint): RefundOutcome {
  const status = refund.status ?? refund.refund_status;
  if (refund.amount?.refund !== undefined && BigInt(refund.amount.refund) !== expectedMinor) {
    return { state: 'unknown', reason: `WeChat Pay reports refund ${refund.out_refund_no} of ${refund.amount.refund} fen, not ${expectedMinor}` };
  }
  const acceptedAt = instantOf(refund.create_time);
  if (status === 'SUCCESS') return { state: 'succeeded', upstreamRefundId: refund.refund_id, finishedAt: instantOf(refund.success_time), acceptedAt };
  if (status === 'PROCESSING') return { state: 'processing', upstreamRefundId: refund.refund_id, acceptedAt };
  if (status === 'ABNORMAL') return { state: 'failed', reason: "ABNORMAL: the payer's account could not take the refund (WeChat Pay)" };
  if (status === 'CLOSED') return { state: 'closed', reason: 'CLOSED: WeChat Pay closed the refund' };
  return { state: 'unknown', reason: 'WeChat Pay answered no refund status' };
}

async function accountFor(db: Database, { order }: RefundAttempt) {
  const credential = await findBoundCredential(db, order);
  if (!credential) throw new Error(`order ${order.orderNo} has no credential to ask WeChat Pay with`);
  const config = wechatConfig();
  return { config, account: await wechatAccountFor(db, credential, config, new Date()) };
}

/** An error of ours or no answer: unknown; WeChat's own refusal (4xx but 429): final, with its code and message. */
function outcomeOfError(error: unknown): RefundOutcome {
  if (!(error instanceof WechatUpstreamError) || error.details.unreachable || error.details.status === undefined || error.details.status === 429) {
    return { state: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
  if (error.details.code === 'SYSTEM_ERROR') return { state: 'unknown', reason: error.reason };
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
    return outcomeOfError(error);
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

export const wechatRefunds: ChannelRefunds = {
  offered: true,
  refuseBefore(order, { refundsSoFar, now }) {
    if (refundsSoFar >= WECHAT_MAX_REFUNDS_PER_ORDER) return `WeChat Pay refunds an order at most ${WECHAT_MAX_REFUNDS_PER_ORDER} times`;
    if (order.paidAt && now.getTime() - order.paidAt.getTime() > REFUND_WINDOW_MS) return 'WeChat Pay refunds nothing more than a year after the payment';
    return undefined;
  },
  request: requestRefund,
  check: queryRefund,
};
