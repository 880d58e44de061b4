import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import { formatMinorUnits } from '../../money/decimal-amount';
import type { PollOutcome } from '../poller/poll-concurrently';
import { settleUpstreamPayment } from '../poller/settle-upstream-payment';
import { AlipayUpstreamError, closeAlipayTrade, queryAlipayTrade, type AlipayQueryResult } from './client';
import type { AlipayConfig } from './config';
import { alipayNotices } from './notices';

export const PAID_STATES: ReadonlySet<string> = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
type FoundTrade = Extract<AlipayQueryResult, { found: true }>;

/** A payment Alipay reports for a pending order: paid here (the amount checked), however late, since the trade was still open. */
export function settlePaid(db: Database, order: OrderRow, upstream: FoundTrade, now: Date): Promise<PollOutcome> {
  const reported = upstream.amountMinor === undefined ? 'no amount' : formatMinorUnits(upstream.amountMinor);
  return settleUpstreamPayment(db, {
    channel: alipayNotices,
    via: 'alipay-query',
    paidDetail: 'payment found by alipay.trade.query (no notification had arrived)',
    // Alipay accepts a payment only while the trade is open, and the trade stays open until it is closed there.
    clockToleranceMs: Number.POSITIVE_INFINITY,
    order,
    payment: { amountMinor: upstream.amountMinor, amountMismatchDetail: `Alipay reports ${reported} paid`, payTime: upstream.payTime, tradeNo: upstream.tradeNo },
    now,
  });
}

/** How alipay.trade.close ended for one order: Alipay takes no payment for it any more, or it was paid there and settled here. */
export type AlipayClosing = { settled?: undefined; upstream: 'closed' | 'never_opened' | 'closed_already' } | { settled: PollOutcome };

/**
 * alipay.trade.close; when Alipay answers that the trade is not waiting, alipay.trade.query decides: paid → settled
 * here through the paid path (a paid trade is paid, never closed), closed at Alipay → nothing left to close there.
 * Only then may the caller close the order here. Throws AlipayUpstreamError when Alipay cannot be asked.
 */
export async function closeAtAlipay(db: Database, config: AlipayConfig, credential: UsableCredential, order: OrderRow, now: Date): Promise<AlipayClosing> {
  const closing = await closeAlipayTrade(config, credential, order.orderNo);
  if (closing !== 'not_waiting') return { upstream: closing };
  const upstream = await queryAlipayTrade(config, credential, order.orderNo);
  if (upstream.found && PAID_STATES.has(upstream.status)) return { settled: await settlePaid(db, order, upstream, now) };
  if (!upstream.found || upstream.status !== 'TRADE_CLOSED') throw new AlipayUpstreamError(`alipay.trade.close refused a trade in state ${upstream.found ? upstream.status.slice(0, 32) : 'unknown'}`);
  return { upstream: 'closed_already' };
}
