import type { Database } from '../../db/client';
import type { OrderRow } from '../../db/schema';
import type { UpstreamClose } from '../../orders/close-order';
import { queryYhtPayment } from './client';
import { yhtConfigOrRefuse } from './adapter';
import { settleYhtPayment } from './settle-payment';

/**
 * Someone closes a pending YHT order. YHT's protocol has create and query, no close (docs/channels/yht.md): the query
 * is asked first, and a payment it reports wins (settled through the paid path, the order paid, never closed);
 * otherwise the order is closed here, and a payment YHT still takes later is recorded as late, never credited.
 */
export async function closeYhtOrderUpstream(db: Database, order: OrderRow, now: Date): Promise<UpstreamClose> {
  const config = yhtConfigOrRefuse();
  const upstream = await queryYhtPayment(config, order.orderNo);
  if (upstream.found && upstream.status === 'SUCCESS') {
    await settleYhtPayment(db, order, upstream, now, 'payment found by the query before a close (no callback had arrived)');
    return { outcome: 'paid' };
  }
  return { outcome: 'closed', detail: 'closed here only: YHT has no close (query answered not paid)' };
}
