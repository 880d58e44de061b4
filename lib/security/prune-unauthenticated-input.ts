import { and, inArray, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { signInThrottle, upstreamCallbacks } from '../db/schema';
import type { PeriodicJob } from '../jobs/periodic-job';

/**
 * What anonymous traffic leaves behind is kept for a while, then deleted:
 *   callbacks refused before they could be tied to an order (bad signature, malformed, unknown order), after
 *   UPSTREAM_CALLBACK_RETENTION_DAYS (default 30); callbacks tied to an order are its audit trail and stay;
 *   sign-in and sign-up throttle counts, once their window (at most an hour) is a day old.
 */
export const ANONYMOUS_CALLBACK_VERDICTS = ['bad_signature', 'malformed', 'unknown_order'] as const;
const DAY_MS = 24 * 60 * 60_000;

export function callbackRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.UPSTREAM_CALLBACK_RETENTION_DAYS ?? 30);
  return Number.isInteger(configured) && configured > 0 ? configured : 30;
}

export async function pruneUnauthenticatedInput(db: Database, now: Date): Promise<{ callbacks: number; throttleRows: number }> {
  const callbacks = await db
    .delete(upstreamCallbacks)
    .where(
      and(
        isNull(upstreamCallbacks.orderId),
        inArray(upstreamCallbacks.verdict, [...ANONYMOUS_CALLBACK_VERDICTS]),
        lt(upstreamCallbacks.receivedAt, new Date(now.getTime() - callbackRetentionDays() * DAY_MS)),
      ),
    )
    .returning({ id: upstreamCallbacks.id });
  const throttleRows = await db
    .delete(signInThrottle)
    .where(lt(signInThrottle.windowStartedAt, new Date(now.getTime() - DAY_MS)))
    .returning({ key: signInThrottle.key });
  return { callbacks: callbacks.length, throttleRows: throttleRows.length };
}

export const pruneJob: PeriodicJob = {
  name: 'prune-unauthenticated-input',
  intervalMs: 60 * 60_000,
  async run({ db, clock, log }) {
    const pruned = await pruneUnauthenticatedInput(db, clock.now());
    if (pruned.callbacks + pruned.throttleRows > 0) log(`prune: ${pruned.callbacks} refused callback(s), ${pruned.throttleRows} throttle row(s)`);
  },
};
