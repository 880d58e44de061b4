import { DrizzleQueryError } from 'drizzle-orm/errors';
import { signalsLostPrimary } from './failover-signals';
import { NoWritableHostError } from './no-writable-host';

/** Socket-level failures: the database (or the network to it) is gone, not a statement that is wrong. */
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that cannot serve now: those that say it is not (or no longer) the primary to write to
 * (failover-signals.ts: class 08, 57P01–57P03, 25006 read-only, the write refused whole), and 53300 (too many
 * connections). A temporary outage, answered 503 and retried, never a bug.
 */
const unavailableSqlstate = (code: string) => signalsLostPrimary(code) || code === '53300';

/** node-postgres's own words for a connection that died or never came (it sets no code on these). */
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
  'connection timeout',
];

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
    if (typeof current !== 'object') break;
  }
  return chain;
}

/** Whether a failure means the database cannot be reached or cannot serve right now (as opposed to a fault of ours). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((cause) => {
    if (!(cause instanceof Error)) return false;
    if (cause instanceof NoWritableHostError) return true; // between a primary's death and its standby's promotion
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_ERRNOS.has(code) || unavailableSqlstate(code))) return true;
    if (cause instanceof AggregateError && cause.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    return UNREACHABLE_MESSAGES.some((words) => cause.message.includes(words));
  });
}

/**
 * A failure as one log line without SQL text or parameter values (they carry merchants' data and secrets' ciphertext):
 * a failed query is named by its cause, e.g. `query failed: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:5432`.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof DrizzleQueryError) return `query failed: ${describeFailure(error.cause)}`;
  if (error instanceof AggregateError && error.errors.length > 0) return describeFailure(error.errors[0]);
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}

/** For an unexpected failure's log entry: its stack, except that a failed query's SQL and parameters are left out. */
export function failureForLog(error: unknown): string {
  if (error instanceof DrizzleQueryError) {
    const cause = error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : String(error.cause);
    return `query failed: ${cause}`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
