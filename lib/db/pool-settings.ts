import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';

/**
 * How long anything may wait on the database, so that nothing waits forever (a cut network, a server that accepts
 * and never answers, a transaction left open): each has a default and a setting, and a malformed setting stops the
 * process naming it.
 */
export interface PoolSettings {
  /** Connections per process (DATABASE_POOL_SIZE, 20). */
  max: number;
  /** Opening a connection, or waiting for a free one in the pool (DATABASE_CONNECT_TIMEOUT_MS, 5 s). */
  connectionTimeoutMillis: number;
  /** One statement on the server (DATABASE_STATEMENT_TIMEOUT_MS, 30 s): the server cancels it past that. */
  statementTimeoutMs: number;
  /** A transaction idle between statements (DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, 60 s): the server ends the session. */
  idleInTransactionTimeoutMs: number;
  /**
   * The client's own limit on an answer, a little over the statement timeout: when the network is cut the server's
   * cancel never arrives, and this one still fires.
   */
  queryTimeoutMs: number;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = envSetting(env, name);
  if (text === undefined) return fallback;
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new StartupRefusal(name, `must be a positive whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

export function poolSettings(env: NodeJS.ProcessEnv = process.env): PoolSettings {
  const statementTimeoutMs = positiveInteger(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000);
  return {
    max: positiveInteger(env, 'DATABASE_POOL_SIZE', 20),
    connectionTimeoutMillis: positiveInteger(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000),
    statementTimeoutMs,
    idleInTransactionTimeoutMs: positiveInteger(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000),
    queryTimeoutMs: statementTimeoutMs + 5_000,
  };
}
