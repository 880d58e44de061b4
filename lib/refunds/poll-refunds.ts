import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { OPEN_REFUND_STATES, refunds, orders } from '../db/schema';
import type { ChannelRefunds } from './channel-refunds';
import { checkRefund } from './send-refund';

const BATCH = 50;

export interface RefundPollSummary {
  checked: number;
  finished: number;
}

/**
 * Asks the upstreams about processing and abnormal refunds that are due (refunds_open_due_idx), one at a time per
 * run, so that a refund accepted but not yet done, whose request had no answer, or waiting for the merchant's remedy
 * reaches its final state.
 */
export async function pollProcessingRefunds(db: Database, now: Date, refundsOf: (channel: string) => ChannelRefunds | undefined): Promise<RefundPollSummary> {
  const due = await db
    .select({ id: refunds.id, channel: orders.channel })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(inArray(refunds.state, [...OPEN_REFUND_STATES]), lte(refunds.nextCheckAt, now)))
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
