import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { upstreamFailure } from '../../errors/domain-error';
import type { UpstreamClose } from '../../orders/close-order';
import { closeByOutTradeNo, queryByOutTradeNo, WechatUpstreamError } from './client';
import { configOrRefuse } from './adapter';
import { wechatAccountFor } from './platform-certificates';
import { settleWechatPayment } from './settle-payment';

const CLOSE_ANSWERED_BY_QUERY = ['ORDERPAID', 'ORDER_CLOSED', 'ORDER_NOT_EXIST'];

/**
 * Someone closes a pending WECHAT order: the close API (204, also for an order already closed; ORDER_NOT_EXIST when it
 * was never placed there), then the query, because WeChat answers the close before a payment in flight settles: a
 * SUCCESS answer wins, the payment is settled through the paid path and the order is paid, never closed.
 */
export async function closeWechatOrderUpstream(db: Database, order: OrderRow, now: Date): Promise<UpstreamClose> {
  const config = configOrRefuse();
  const credential = await findBoundCredential(db, order);
  if (!credential) throw upstreamFailure(`order ${order.orderNo} has no credential to ask WeChat Pay with`);
  const account = await wechatAccountFor(db, credential, config, now);
  let refusal: string | undefined;
  try {
    await closeByOutTradeNo(config, account, order.orderNo);
  } catch (error) {
    // ORDERPAID (v2's word, still answered) or ORDER_CLOSED (v3: 订单已关闭): the query below says which.
    // ORDER_NOT_EXIST: never placed there, nothing to close.
    if (!(error instanceof WechatUpstreamError) || !CLOSE_ANSWERED_BY_QUERY.includes(String(error.details.code))) throw error;
    refusal = String(error.details.code);
  }
  const upstream = await queryByOutTradeNo(config, account, order.orderNo);
  const transaction = upstream.found ? upstream.transaction : undefined;
  if (transaction?.trade_state === 'SUCCESS') {
    await settleWechatPayment(db, account, order, transaction, now, 'payment found by the query after a close (no notification had arrived)');
    return { outcome: 'paid' };
  }
  if (transaction && transaction.trade_state !== 'CLOSED') throw upstreamFailure(`WeChat Pay still reports trade_state ${transaction.trade_state.slice(0, 32)} after the close`);
  return { outcome: 'closed', detail: transaction ? 'closed at WeChat Pay (close, then query: CLOSED)' : `never placed at WeChat Pay (${refusal ?? 'query: ORDER_NOT_EXIST'})` };
}
