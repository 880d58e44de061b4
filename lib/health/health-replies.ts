import type pg from 'pg';
import type { HealthSnapshot } from '../operator/health';
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

/** How long `/healthz?details` waits for the figures before answering without them. */
export const DETAILS_TIMEOUT_MS = 1_000;

/**
 * Liveness with the operator's health figures (`GET /healthz?details`): chain watcher cursor and lag, notification
 * queue, receiving pools' pressure, each periodic job's last run. Still 200 while the process lives: figures that cannot be read within
 * DETAILS_TIMEOUT_MS (the database is down) are replaced by the reason. Plain `/healthz` never touches the database.
 */
export async function livenessWithDetails(snapshot: () => Promise<HealthSnapshot>, timeoutMs = DETAILS_TIMEOUT_MS): Promise<ProbeReply> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const health = await Promise.race([
      snapshot(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 200, body: { status: 'ok', details: healthDetails(health) } };
  } catch (failure) {
    // Drizzle wraps the driver's error (its message is the query text): report the driver's own.
    const error = failure instanceof Error && failure.cause instanceof Error ? failure.cause : failure;
    const code = (error as { code?: unknown })?.code;
    const reason = `${typeof code === 'string' ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`;
    return { status: 200, body: { status: 'ok', details: { unavailable: reason } } };
  } finally {
    clearTimeout(timer);
  }
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function healthDetails(health: HealthSnapshot): Record<string, unknown> {
  return {
    at: iso(health.at),
    chain: { cursorAt: iso(health.chain.cursorAt), lagMs: health.chain.lagMs },
    notifications: { ...health.notifications, oldestDueAt: iso(health.notifications.oldestDueAt) },
    pools: health.pools,
    jobs: Object.fromEntries(
      health.jobs.map(({ name, run }) => [
        name,
        run
          ? { lastRunAt: iso(run.lastFinishedAt), outcome: run.lastOutcome, lastSuccessAt: iso(run.lastSuccessAt), lastError: run.lastError, lastErrorAt: iso(run.lastErrorAt) }
          : { lastRunAt: null },
      ]),
    ),
  };
}
