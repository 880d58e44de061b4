import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import type { AlipaySandboxKeys } from '@/lib/channels/alipay/sandbox-keys';
import { beijingTime, formatYuan, parseTotalAmount } from './protocol';
import { sandboxAlipayConsoleRefunds, sandboxAlipayRefunds, sandboxAlipayTrades, type SandboxAlipayRefundRow } from './schema';
import { findTrade, type SandboxTrade } from './store';

/**
 * alipay.trade.refund and alipay.trade.fastpay.refund.query as Alipay documents them: a refund is one
 * (trade, out_request_no); the same number again with the same amount refunds nothing more (fund_change=N), with
 * another amount it is refused (ACQ.DISCORDANT_REPEAT_REQUEST); the refunds of a trade never exceed its total; a
 * trade refunded in full is closed (trade_status TRADE_CLOSED: "未付款交易超时关闭，或支付完成后全额退款", the trade
 * status table of alipay.trade.query), so a later refund of it, even the same one sent again, meets
 * ACQ.TRADE_HAS_CLOSE. A trade's refund plan (a sandbox control: refund-plan) makes the next refund stay processing,
 * fail for want of balance, answer too late once (the refund is made, the answer is lost), or be made and answered
 * as Alipay does on a bad day: 20000 isp.unknow-error ("服务不可用", the public error codes), 40004
 * ACQ.SYSTEM_ERROR ("系统错误，请使用相同的参数再次调用", alipay.trade.refund's error codes), or the same system error
 * as the gateway relays it, its sub_code prefixed with the gateway's `aop.` (40004 aop.ACQ.SYSTEM_ERROR, as answers
 * seen from Alipay carry it): no documented refusal, so the refund's outcome is unknown until it is asked about.
 */

export const REFUND_PLANS = ['processing', 'fail', 'timeout_once', 'unavailable_after_refund', 'system_error_after_refund', 'aop_system_error_after_refund'] as const;
export type RefundPlan = (typeof REFUND_PLANS)[number];

type Answer = Record<string, unknown>;
const business = (subCode: string, subMsg: string): Answer => ({ code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
/** What a plan answers after the refund was made: its own answer instead of 10000. */
const BAD_DAY_ANSWERS: Partial<Record<RefundPlan, Answer>> = {
  unavailable_after_refund: { code: '20000', msg: 'Service Currently Unavailable', sub_code: 'isp.unknow-error', sub_msg: '系统繁忙' },
  system_error_after_refund: business('ACQ.SYSTEM_ERROR', '系统错误'),
  aop_system_error_after_refund: business('aop.ACQ.SYSTEM_ERROR', '系统异常'),
};
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** How long a `timeout_once` answer is held back: longer than the caller waits (SANDBOX_SLOW_ANSWER_MS, default 15 s). */
export function slowAnswerMs(): number {
  const configured = Number(process.env.SANDBOX_SLOW_ANSWER_MS ?? 15_000);
  return Number.isFinite(configured) && configured >= 0 ? configured : 15_000;
}

/** What the trade has refunded so far, through alipay.trade.refund and by hand in the merchant's console alike. */
export async function refundedSum(tx: Database, tradeNo: string): Promise<bigint> {
  const { rows } = await tx.execute<{ total: string }>(sql`
    SELECT ((SELECT coalesce(sum(amount_minor), 0) FROM ${sandboxAlipayRefunds} WHERE trade_no = ${tradeNo})
          + (SELECT coalesce(sum(amount_minor), 0) FROM ${sandboxAlipayConsoleRefunds} WHERE trade_no = ${tradeNo}))::text AS total`);
  return BigInt(rows[0]?.total ?? '0');
}

/** gmt_refund_pay (退款支付时间): when the refund's money went back, answered once it has. */
function refundAnswer(trade: SandboxTrade, refundedMinor: bigint, fundChange: 'Y' | 'N', refundedAt?: Date | null): Answer {
  return {
    ...(refundedAt ? { gmt_refund_pay: beijingTime(refundedAt) } : {}),
    code: '10000',
    msg: 'Success',
    trade_no: trade.tradeNo,
    out_trade_no: trade.outTradeNo,
    buyer_logon_id: trade.buyerLogonId ?? '',
    fund_change: fundChange,
    refund_fee: formatYuan(refundedMinor),
  };
}

/** The refund itself, under the trade's row lock: what to answer, and whether to hold the answer back. */
async function refundUnderLock(db: Database, trade: SandboxTrade, outRequestNo: string, amountMinor: bigint, reason: string | undefined): Promise<{ answer: Answer; slow: boolean }> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [locked] = await tx.select().from(sandboxAlipayTrades).where(eq(sandboxAlipayTrades.id, trade.id)).for('update');
    if (locked!.status === 'TRADE_CLOSED') return { answer: business('ACQ.TRADE_HAS_CLOSE', '交易已经关闭'), slow: false };
    if (locked!.status !== 'TRADE_SUCCESS') return { answer: business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法'), slow: false };
    const [existing] = await tx
      .select()
      .from(sandboxAlipayRefunds)
      .where(and(eq(sandboxAlipayRefunds.tradeNo, locked!.tradeNo), eq(sandboxAlipayRefunds.outRequestNo, outRequestNo)));
    if (existing) {
      if (existing.amountMinor !== amountMinor) return { answer: business('ACQ.DISCORDANT_REPEAT_REQUEST', '请求信息不一致: out_request_no was used with another refund_amount'), slow: false };
      return { answer: refundAnswer(locked!, await refundedSum(tx, locked!.tradeNo), 'N', existing.settledAt), slow: false };
    }
    const plan = locked!.refundPlan as RefundPlan | null;
    if (plan === 'fail') {
      await tx.update(sandboxAlipayTrades).set({ refundPlan: null }).where(eq(sandboxAlipayTrades.id, locked!.id));
      return { answer: business('ACQ.SELLER_BALANCE_NOT_ENOUGH', '卖家余额不足'), slow: false };
    }
    const sum = await refundedSum(tx, locked!.tradeNo);
    if (sum + amountMinor > locked!.amountMinor) return { answer: business('ACQ.REASON_TRADE_REFUND_FEE_ERR', '退款金额超限: the refunds would exceed the trade total'), slow: false };
    const processing = plan === 'processing';
    const settledAt = processing ? null : new Date();
    const refunded = sum + amountMinor;
    await tx.insert(sandboxAlipayRefunds).values({
      tradeNo: locked!.tradeNo,
      outRequestNo,
      amountMinor,
      reason: reason ?? null,
      status: processing ? 'REFUND_PROCESSING' : 'REFUND_SUCCESS',
      settledAt,
    });
    const fullyRefunded = refunded === locked!.amountMinor;
    const oncePlan = plan !== null && plan !== 'processing';
    if (oncePlan || fullyRefunded) {
      await tx
        .update(sandboxAlipayTrades)
        .set({ ...(oncePlan ? { refundPlan: null } : {}), ...(fullyRefunded ? { status: 'TRADE_CLOSED' } : {}) })
        .where(eq(sandboxAlipayTrades.id, locked!.id));
    }
    const badDay = plan ? BAD_DAY_ANSWERS[plan] : undefined;
    return { answer: badDay ?? refundAnswer(locked!, refunded, processing ? 'N' : 'Y', settledAt), slow: plan === 'timeout_once' };
  });
}

async function tradeOf(db: Database, biz: Record<string, unknown>, keys: AlipaySandboxKeys): Promise<SandboxTrade | undefined> {
  const tradeNo = text(biz.trade_no);
  const outTradeNo = text(biz.out_trade_no);
  return tradeNo ? findTrade(db, keys.appId, { tradeNo }) : outTradeNo ? findTrade(db, keys.appId, { outTradeNo }) : undefined;
}

/** alipay.trade.refund. */
export async function refundTrade(db: Database, biz: Record<string, unknown>, keys: AlipaySandboxKeys): Promise<Answer> {
  if (!text(biz.out_trade_no) && !text(biz.trade_no)) return business('ACQ.INVALID_PARAMETER', '参数无效: out_trade_no or trade_no is required');
  const amountMinor = parseTotalAmount(biz.refund_amount);
  if (amountMinor === undefined) return business('ACQ.INVALID_PARAMETER', '参数无效: refund_amount must be 0.01 to 100000000 with at most 2 decimals');
  const trade = await tradeOf(db, biz, keys);
  if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在');
  const outRequestNo = text(biz.out_request_no) ?? trade.outTradeNo;
  if (outRequestNo.length > 64) return business('ACQ.INVALID_PARAMETER', '参数无效: out_request_no is at most 64 characters');
  const reason = text(biz.refund_reason);
  const { answer, slow } = await refundUnderLock(db, trade, outRequestNo, amountMinor, reason);
  if (slow) await new Promise((resolve) => setTimeout(resolve, slowAnswerMs()));
  return answer;
}

/** alipay.trade.fastpay.refund.query: refund data only for a refund that succeeded; 10000 without it otherwise. */
export async function queryRefund(db: Database, biz: Record<string, unknown>, keys: AlipaySandboxKeys): Promise<Answer> {
  if (!text(biz.out_trade_no) && !text(biz.trade_no)) return business('ACQ.INVALID_PARAMETER', '参数无效: out_trade_no or trade_no is required');
  const trade = await tradeOf(db, biz, keys);
  if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在');
  const outRequestNo = text(biz.out_request_no) ?? trade.outTradeNo;
  const [refund] = await db
    .select()
    .from(sandboxAlipayRefunds)
    .where(and(eq(sandboxAlipayRefunds.tradeNo, trade.tradeNo), eq(sandboxAlipayRefunds.outRequestNo, outRequestNo)));
  const base = { code: '10000', msg: 'Success', trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo, out_request_no: outRequestNo };
  if (refund?.status !== 'REFUND_SUCCESS') return base;
  // query_options names the optional fields to answer; gmt_refund_pay is one of them.
  const asked = Array.isArray(biz.query_options) ? biz.query_options : [];
  const refundedAt = asked.includes('gmt_refund_pay') && refund.settledAt ? { gmt_refund_pay: beijingTime(refund.settledAt) } : {};
  return { ...base, total_amount: formatYuan(trade.amountMinor), refund_amount: formatYuan(refund.amountMinor), refund_status: 'REFUND_SUCCESS', ...refundedAt, ...(refund.reason ? { refund_reason: refund.reason } : {}) };
}

/** Sandbox control: what the trade's next refund meets (none: it succeeds at once). */
export async function planTradeRefund(db: Database, outTradeNo: string, plan: RefundPlan | null): Promise<SandboxTrade | undefined> {
  const [trade] = await db.update(sandboxAlipayTrades).set({ refundPlan: plan }).where(eq(sandboxAlipayTrades.outTradeNo, outTradeNo)).returning();
  return trade;
}

/** Sandbox control: a processing refund is done (the money is back with the payer) at `now`, its gmt_refund_pay. */
export async function settleProcessingRefund(db: Database, outRequestNo: string, now = new Date()): Promise<SandboxAlipayRefundRow | undefined> {
  const [refund] = await db
    .update(sandboxAlipayRefunds)
    .set({ status: 'REFUND_SUCCESS', settledAt: now })
    .where(and(eq(sandboxAlipayRefunds.outRequestNo, outRequestNo), eq(sandboxAlipayRefunds.status, 'REFUND_PROCESSING')))
    .returning();
  return refund;
}

/** The simulator's refund of that out_request_no, if any. */
export async function sandboxAlipayRefundNamed(db: Database, outRequestNo: string): Promise<SandboxAlipayRefundRow | undefined> {
  const [refund] = await db.select().from(sandboxAlipayRefunds).where(eq(sandboxAlipayRefunds.outRequestNo, outRequestNo)).limit(1);
  return refund;
}

/** The refunds the simulator made of one trade (tests and the CLI: money moved once). */
export async function refundsOfTrade(db: Database, outTradeNo: string): Promise<SandboxAlipayRefundRow[]> {
  return db
    .select({ refund: sandboxAlipayRefunds })
    .from(sandboxAlipayRefunds)
    .innerJoin(sandboxAlipayTrades, eq(sandboxAlipayTrades.tradeNo, sandboxAlipayRefunds.tradeNo))
    .where(eq(sandboxAlipayTrades.outTradeNo, outTradeNo))
    .then((rows) => rows.map((row) => row.refund));
}
