import { eq } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { sandboxAlipayTrades } from './schema';
import type { SandboxTrade } from './store';

/**
 * What alipay.trade.close answers for a trade that is not waiting for the buyer. Alipay's error codes of the close
 * (统一收单交易关闭接口, 业务错误码) give three: ACQ.TRADE_STATUS_ERROR "交易状态不合法" ("只有等待买家付款状态下才能发起交易
 * 关闭"), and ACQ.REASON_TRADE_STATUS_INVALID and ACQ.REASON_ILLEGAL_STATUS, both "交易状态异常" ("确认交易状态，非待支付
 * 状态下不支持关单操作"), without saying when it gives which. By default the simulator answers a paid trade with
 * ACQ.REASON_TRADE_STATUS_INVALID and a closed one with ACQ.TRADE_STATUS_ERROR; a trade's close plan (a sandbox
 * control) makes it answer ACQ.REASON_ILLEGAL_STATUS to both, so that a caller is seen to handle every documented one.
 */
export const ALIPAY_CLOSE_PLANS = {
  illegal_status: 'a close of the trade while it is not waiting (paid, or closed) is answered 40004 ACQ.REASON_ILLEGAL_STATUS (交易状态异常)',
} as const;
export type AlipayClosePlan = keyof typeof ALIPAY_CLOSE_PLANS;

type Answer = Record<string, unknown>;
const business = (subCode: string, subMsg: string): Answer => ({ code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });

/** The answer to a close of a trade that is not waiting, as its close plan says. */
export function notWaitingAnswer(trade: SandboxTrade): Answer {
  if (trade.closePlan === 'illegal_status') return business('ACQ.REASON_ILLEGAL_STATUS', '交易状态异常: 非待支付状态下不支持关单操作');
  const paid = trade.status === 'TRADE_SUCCESS' || trade.status === 'TRADE_FINISHED';
  return paid ? business('ACQ.REASON_TRADE_STATUS_INVALID', '交易状态异常: 非待支付状态下不支持关单操作') : business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
}

/** Sandbox control: how the trade's close is answered while it is not waiting (null: the default); the trade, if any. */
export async function planTradeClose(db: Database, outTradeNo: string, plan: AlipayClosePlan | null): Promise<SandboxTrade | undefined> {
  const [trade] = await db.update(sandboxAlipayTrades).set({ closePlan: plan }).where(eq(sandboxAlipayTrades.outTradeNo, outTradeNo)).returning();
  return trade;
}
