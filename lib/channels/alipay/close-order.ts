import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { upstreamFailure } from '../../errors/domain-error';
import type { UpstreamClose } from '../../orders/close-order';
import { closeAtAlipay } from './close-trade';
import { alipayConfigOrRefuse } from './adapter';

const DETAIL = {
  closed: 'closed at Alipay (alipay.trade.close)',
  never_opened: 'never opened at Alipay (alipay.trade.close answered ACQ.TRADE_NOT_EXIST)',
  closed_already: 'closed at Alipay already (alipay.trade.query answered TRADE_CLOSED)',
} as const;

/**
 * Someone closes a pending ALIPAY order: alipay.trade.close first (a trade the payer never opened is closed here
 * only); a trade Alipay reports paid is settled through the paid path and the order is paid, never closed.
 */
export async function closeAlipayOrderUpstream(db: Database, order: OrderRow, now: Date): Promise<UpstreamClose> {
  const config = alipayConfigOrRefuse();
  const credential = await findBoundCredential(db, order);
  if (!credential) throw upstreamFailure(`order ${order.orderNo} has no credential to ask Alipay with`);
  const closing = await closeAtAlipay(db, config, credential, order, now);
  return closing.settled ? { outcome: 'paid' } : { outcome: 'closed', detail: DETAIL[closing.upstream] };
}
