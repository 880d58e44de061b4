import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { notificationDueNow } from './claim';

/**
 * Ends the cycles that reached the retry plan's horizon while their destination's circuit held them back: they
 * fail then, as they would have had every attempt been made, instead of waiting for the destination forever.
 * Returns how many failed.
 */
export async function expireDeferredNotifications(db: Database, now: Date): Promise<number> {
  const { rowCount } = await db.execute(sql`
    UPDATE notifications n
    SET status = 'failed', failed_at = ${now},
        last_error = 'retry plan ended while ' || n.destination || ' was failing (circuit open since ' || to_char(d.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '): ' || coalesce(d.last_error, 'no answer')
    FROM notification_destinations d
    WHERE d.destination = n.destination AND d.open_until IS NOT NULL
      AND n.give_up_at <= ${now} AND ${notificationDueNow(now)}`);
  return rowCount ?? 0;
}
