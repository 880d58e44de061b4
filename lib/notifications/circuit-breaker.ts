import { sql, type SQL } from 'drizzle-orm';

/** Consecutive unanswered attempts (timeouts, refused or reset connections) after which a destination's circuit opens. */
export const FAILURES_TO_OPEN = 5;
/** The circuit opens for 10 s, and 10 s longer with each further failure, up to 5 min between probes. */
export const OPEN_STEP_MS = 10_000;
export const MAX_OPEN_MS = 5 * 60_000;

/** How long a circuit stays open after `failures` consecutive failures (it opens at FAILURES_TO_OPEN). */
export function openDurationMs(failures: number): number {
  return Math.min(MAX_OPEN_MS, OPEN_STEP_MS * (failures - FAILURES_TO_OPEN + 1));
}

/**
 * The statement (a CTE body) that records one attempt's outcome in its destination's circuit, or undefined when
 * the attempt says nothing about the destination (refused by our own guard, no notifyUrl). Any HTTP answer, even
 * an error status, closes the circuit: the destination answers, so it holds no slot for long. Healthy destinations
 * have no row and answering ones are not written to, so a busy merchant's deliveries do not contend on a row.
 */
export function circuitOutcome(destination: string | null, outcome: { answered: boolean; unanswered: boolean; at: Date; error: string | null }): SQL | undefined {
  if (destination === null) return undefined;
  if (outcome.answered) {
    return sql`
      UPDATE notification_destinations
      SET consecutive_failures = 0, failing_since = NULL, open_until = NULL, probe_until = NULL, last_answer_at = ${outcome.at}
      WHERE destination = ${destination} AND (consecutive_failures > 0 OR open_until IS NOT NULL OR probe_until IS NOT NULL)`;
  }
  if (!outcome.unanswered) return undefined;
  const failures = sql`d.consecutive_failures + 1`;
  return sql`
    INSERT INTO notification_destinations AS d (destination, consecutive_failures, failing_since, last_error, last_failure_at)
    VALUES (${destination}, 1, ${outcome.at}, ${outcome.error}, ${outcome.at})
    ON CONFLICT (destination) DO UPDATE SET
      consecutive_failures = ${failures},
      failing_since = coalesce(d.failing_since, EXCLUDED.failing_since),
      open_until = CASE WHEN ${failures} >= ${FAILURES_TO_OPEN}
        THEN greatest(d.open_until, ${outcome.at}::timestamptz
          + least(${MAX_OPEN_MS}, ${OPEN_STEP_MS} * (${failures} - ${FAILURES_TO_OPEN} + 1)) * interval '1 millisecond')
        ELSE d.open_until END,
      probe_until = NULL,
      last_error = EXCLUDED.last_error,
      last_failure_at = EXCLUDED.last_failure_at`;
}
