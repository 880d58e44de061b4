import { and, asc, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { refunds, orders } from '../db/schema';
import type { ChannelRefunds } from './channel-refunds';
import { checkRefund } from './send-refund';

const BATCH = 50;

export interface RefundPollSummary {
  checked: number;
  finished: number;
}

/**
 * Asks the upstreams about processing refunds that are due (refunds_processing_due_idx), one at a time per run, so
 * that a refund accepted but not yet done, or whose request had no answer, reaches its final state.
 */
export async function pollProcessingRefunds(db: Database, now: Date, refundsOf: (channel: string) => ChannelRefunds | undefined): Promise<RefundPollSummary> {
  const due = await db
    .select({ id: refunds.id, channel: orders.channel })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.state, 'processing'), lte(refunds.nextCheckAt, now)))
    .orderBy(asc(refunds.nextCheckAt))
    .limit(BATCH);
  let finished = 0;
  for (const { id, channel } of due) {
    const channelRefunds = refundsOf(channel);
    if (!channelRefunds?.offered) continue;
    const outcome = await checkRefund(db, channelRefunds, id, now);
    if (outcome.state === 'succeeded' || outcome.state === 'failed' || outcome.state === 'closed') finished += 1;
  }
  return { checked: due.length, finished };
}
