import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import { formatMinorUnits } from '../../money/decimal-amount';
import type { PollOutcome } from '../poller/poll-concurrently';
import { settleUpstreamPayment } from '../poller/settle-upstream-payment';
import type { YhtQueryResult } from './client';
import { CLOCK_TOLERANCE_MS } from './receive-callback';
import { yhtNotices } from './notices';

/** A SUCCESS the query reported (the poller's, or the one before a close), settled through the paid path (amount and window checked). */
export function settleYhtPayment(db: Database, order: OrderRow, upstream: Extract<YhtQueryResult, { found: true }>, now: Date, paidDetail: string): Promise<PollOutcome> {
  return settleUpstreamPayment(db, {
    channel: yhtNotices,
    via: 'yht-query',
    paidDetail,
    clockToleranceMs: CLOCK_TOLERANCE_MS,
    order,
    payment: {
      amountMinor: upstream.amountMinor,
      amountMismatchDetail: `upstream reports ${formatMinorUnits(upstream.amountMinor)} paid`,
      payTime: upstream.payTime,
      tradeNo: upstream.tradeNo,
    },
    now,
  });
}
