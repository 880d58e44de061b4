import type pg from 'pg';
import { checkReadiness, type CheckResult } from './readiness';

/** What a probe answers over HTTP: a status and a JSON body. */
export interface ProbeReply {
  status: number;
  body: Record<string, unknown>;
}

/** Liveness: the process answers. Touches nothing else (a database outage must not get the process restarted). */
export function liveness(): ProbeReply {
  return { status: 200, body: { status: 'ok' } };
}

const shown = (check: CheckResult) => (check.ok ? 'ok' : check.reason);

/** Readiness: 200 when the database answers and is fully migrated, else 503 naming the checks that failed. */
export async function readiness(pool: () => pg.Pool): Promise<ProbeReply> {
  const result = await checkReadiness(pool);
  const checks = { database: shown(result.checks.database), migrations: shown(result.checks.migrations) };
  if (result.ready) return { status: 200, body: { status: 'ok', checks } };
  const failed = Object.entries(result.checks)
    .filter(([, check]) => !check.ok)
    .map(([name]) => name);
  return { status: 503, body: { status: 'unavailable', failed, checks } };
}
