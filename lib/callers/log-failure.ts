import { failureForLog, isDatabaseUnavailable } from '../db/database-failure';
import { OutageLog } from '../db/outage-log';
import { log } from '../observability/logger';

// With the request wrappers, not in lib/observability/: it tells a database outage from a failure (lib/db/), and
// lib/observability/ stays below lib/db/, whose outage log and statement metrics write into it.

/** One outage log per component that reports failures here: a line when the database goes, one when it is back. */
const outages = new Map<string, OutageLog>();

/**
 * An unexpected failure of `component`, logged once with its stack but never a failed query's SQL or parameters
 * (failureForLog). The database being unreachable is not logged per request: the component's outage log says when it
 * went and when it came back (lib/db/outage-log.ts).
 */
export function logFailure(component: string, error: unknown, message = 'unexpected failure', fields: Record<string, unknown> = {}): void {
  if (isDatabaseUnavailable(error)) {
    let outage = outages.get(component);
    if (!outage) outages.set(component, (outage = new OutageLog(component)));
    outage.failed(error);
    return;
  }
  log().error({ component, ...fields, failure: failureForLog(error) }, `${component}: ${message}`);
}

/** A request of `component` succeeded: ends its outage in progress, if any (started: a clock reading from before it). */
export function logSuccess(component: string, startedAt: number): void {
  outages.get(component)?.answered(startedAt);
}
