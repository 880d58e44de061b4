import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import type { PollOutcome } from '../poller/poll-concurrently';
import { recordPollAnomalyOnce } from '../poller/record-poll-anomaly';
import { settleUpstreamPayment } from '../poller/settle-upstream-payment';
import type { WechatAccount } from './account';
import { parseWechatTime, type WechatTransaction } from './client';
import { CLOCK_TOLERANCE_MS } from './receive-callback';
import { wechatNotices } from './notices';

/**
 * A SUCCESS transaction the query reported (the poller's, or the one after a close): another appid is recorded for
 * the operator and not settled; otherwise the paid path settles it (amount and window checked), recorded as kind 'query'.
 */
export async function settleWechatPayment(db: Database, account: WechatAccount, order: OrderRow, transaction: WechatTransaction, now: Date, paidDetail: string): Promise<PollOutcome> {
  if (transaction.appid !== undefined && transaction.appid !== account.appId) {
    await recordPollAnomalyOnce(db, {
      channel: 'WECHAT',
      order,
      verdict: 'wrong_merchant',
      detail: `query answered appid ${transaction.appid.slice(0, 40)}, not credential ${account.credentialId}'s`,
      now,
      tradeNo: transaction.transaction_id,
    });
    return 'failed';
  }
  const total = transaction.amount?.total;
  return settleUpstreamPayment(db, {
    channel: wechatNotices,
    via: 'wechat-poll',
    paidDetail,
    clockToleranceMs: CLOCK_TOLERANCE_MS,
    order,
    payment: {
      amountMinor: total === undefined ? undefined : BigInt(total),
      amountMismatchDetail: `WeChat reports amount.total ${String(total)} fen paid, the order is ${order.payAmountMinor} fen`,
      payTime: parseWechatTime(transaction.success_time),
      tradeNo: transaction.transaction_id,
    },
    now,
  });
}
