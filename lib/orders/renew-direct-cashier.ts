import { eq } from 'drizzle-orm';
import { isDomainError } from '../errors/domain-error';
import { type DirectChannelAdapter } from './direct-channel-adapter';
import { findUsableCredential } from '../credentials/find-usable-credential';
import type { Database } from '../db/client';
import { upstreamOrders, type OrderRow, type UpstreamOrderRow } from '../db/schema';
import { log } from '../observability/logger';

/**
 * The upstream row a repeat submit answers with: for a pending order whose adapter renews cashiers, the adapter may
 * ask the upstream for a fresh one (an upstream's payment link may live only minutes), stored with when it was issued. A paid, closed
 * or lapsed order, or one whose credential is no longer usable, keeps what it has. A refusal is 1011, as at create.
 */
export async function renewedUpstream(
  db: Database,
  adapter: DirectChannelAdapter,
  order: OrderRow,
  upstream: UpstreamOrderRow | undefined,
  now: Date,
): Promise<UpstreamOrderRow | undefined> {
  if (!upstream || !adapter.renewCashier || order.status !== 'pending' || order.expiresAt.getTime() <= now.getTime() || order.credentialId === null) return upstream;
  const credential = await findUsableCredential(db, order.merchantId, adapter.channel, order.credentialId);
  if (!credential) return upstream;
  let renewed: { cashierUrl: string } | undefined;
  try {
    renewed = await adapter.renewCashier(credential, order, upstream, now);
  } catch (error) {
    if (isDomainError(error, 'upstream_failure')) log().warn({ component: 'orders', channel: adapter.channel, orderNo: order.orderNo }, `${adapter.channel.toLowerCase()}: renewing the cashier of ${order.orderNo} failed: ${error.message}`);
    throw error;
  }
  if (!renewed) return upstream;
  const [row] = await db.update(upstreamOrders).set({ cashierUrl: renewed.cashierUrl, cashierIssuedAt: now }).where(eq(upstreamOrders.orderId, order.id)).returning();
  return row ?? upstream;
}
