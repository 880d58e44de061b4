import type { OrderRow } from '../../db/schema';

/** What one poll of one order came to; 'failed' means the upstream did not answer usably (or answered an anomaly). */
export type PollOutcome = 'paid' | 'closed' | 'pending' | 'failed';

export interface PollSummary {
  checked: number;
  paid: number;
  closed: number;
  failed: number;
}

/** Checks the batch with at most `concurrency` orders in flight at a time, and counts what became of them. */
export async function pollConcurrently(batch: readonly OrderRow[], concurrency: number, check: (order: OrderRow) => Promise<PollOutcome>): Promise<PollSummary> {
  const summary: PollSummary = { checked: 0, paid: 0, closed: 0, failed: 0 };
  let next = 0;
  async function lane() {
    while (next < batch.length) {
      const order = batch[next++]!;
      summary.checked += 1;
      const outcome = await check(order);
      if (outcome !== 'pending') summary[outcome] += 1;
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, lane));
  return summary;
}
