import type { Database } from '../db/client';
import { DomainError } from '../errors/domain-error';
import { formatMinorUnits } from '../money/decimal-amount';
import type { MerchantCheck } from '../merchants/merchant-check';
import { findQueriedOrder, type QueriedOrder } from './find-order';

/** What a query needs of the channel it names: its name (orders.channel) and the query's data of one of its orders. */
export interface QueryingChannel {
  readonly name: string;
  queryData(order: QueriedOrder): unknown;
}

/**
 * The query's data of the merchant's order through the channel the caller picked (the open API picks it by payType);
 * another channel's order is order_not_found (1006), as an unknown one is.
 */
export async function queryOrder(db: Database, channel: QueryingChannel, merchantId: number, merchantOrderNo: string, check?: MerchantCheck): Promise<unknown> {
  const order = await findQueriedOrder(db, merchantId, merchantOrderNo, check);
  if (!order || order.channel !== channel.name) throw new DomainError('order_not_found');
  return queryAnswerOf(channel, order);
}

/**
 * What the query (and the close, which answers the order as the query does) says of an order: the channel's own fields
 * as the contract fixes them, and the refunded total (refunds that succeeded) on every channel.
 */
export function queryAnswerOf(channel: QueryingChannel, order: QueriedOrder): Record<string, unknown> {
  // Not `{ ...data, refundedAmount }`: in V8, properties added after a spread make a slow object (several µs a query).
  return Object.assign({}, channel.queryData(order) as Record<string, unknown>, { refundedAmount: formatMinorUnits(order.refundedMinor) });
}
