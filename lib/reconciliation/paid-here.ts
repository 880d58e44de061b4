import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { formatMinorUnits } from '../money/decimal-amount';
import { beijingDayBounds } from './beijing-day';
import type { ReconciledChannels } from './bill-source';
import { scopeCondition } from './match-rows';

/**
 * Our paid orders of a day in one run's scope as they stand now: what a run that has not completed (no bill yet, a
 * failure) shows on our side, where it has no totals of its own. Undefined when the scope is no longer configured.
 */
export async function paidHereNow(db: Database, channels: ReconciledChannels, run: { day: string; channel: string; scope: string }): Promise<{ count: number; total: string } | undefined> {
  const bounds = beijingDayBounds(run.day);
  const source = channels.find((channel) => channel.name === run.channel)?.reconciliation;
  const scope = source ? (await source.scopes(db)).find((candidate) => candidate.key === run.scope) : undefined;
  if (!bounds || !scope) return undefined;
  const { rows } = await db.execute<{ count: string; total: string }>(sql`
    SELECT count(*) AS count, coalesce(sum(o.pay_amount_minor), 0) AS total FROM orders o
    WHERE ${scopeCondition(run.channel, scope)} AND o.status = 'paid' AND o.paid_at >= ${bounds.start} AND o.paid_at < ${bounds.end}`);
  return { count: Number(rows[0]!.count), total: formatMinorUnits(BigInt(rows[0]!.total)) };
}
