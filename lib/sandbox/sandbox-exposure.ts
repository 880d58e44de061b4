import type { Database } from '../db/client';
import { operatorBehindRequest } from '../operator/operator-request';
import { sandboxEnabled } from './sandbox-enabled';

/**
 * SANDBOX_ENABLED=true in production mounts the upstream simulators next to real money. It is allowed (a staging
 * service), but never silently: the service says so at start and on every page, no upstream URL falls back to a
 * sandbox, and the sandbox's "outside world" actions that could pay an order (a chain transfer) need an operator.
 */
export function sandboxMountedInProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'production' && sandboxEnabled();
}

export const SANDBOX_IN_PRODUCTION_WARNING =
  'SANDBOX MOUNTED IN PRODUCTION (SANDBOX_ENABLED=true): the simulated upstreams under /sandbox/ are reachable; ' +
  'payments made there are not real money';

/** The start-up banner: impossible to miss in a log. */
export function sandboxStartBanner(): string {
  const rule = '!'.repeat(100);
  return [rule, `!!! ${SANDBOX_IN_PRODUCTION_WARNING}`, rule].join('\n');
}

/** A sandbox action that moves (simulated) money: anyone in development, an operator's session in production. */
export async function maySandboxAct(db: () => Database, request: Request): Promise<boolean> {
  if (process.env.NODE_ENV !== 'production') return true;
  return (await operatorBehindRequest(db(), request)) !== undefined;
}
