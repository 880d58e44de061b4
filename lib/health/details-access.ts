import { createHash, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/client';
import { operatorBehindRequest } from '../operator/operator-request';
import { configuredToken } from '../config/token-settings';

/**
 * `/healthz?details` shows job errors and queue figures: only to an operator's session or to a monitor that sends
 * `Authorization: Bearer <HEALTH_DETAILS_TOKEN>` (when that is configured; its rule is checked at start,
 * lib/config/token-settings.ts). Plain liveness stays open.
 */
export const HEALTH_DETAILS_REFUSAL = 'details need an operator session or Authorization: Bearer <HEALTH_DETAILS_TOKEN>';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <the token in setting `name`>` (false when none is configured). */
export function bearerMatches(request: Request, env: NodeJS.ProcessEnv, name = 'HEALTH_DETAILS_TOKEN'): boolean {
  const configured = configuredToken(name, env);
  if (!configured) return false;
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!), digest(configured));
}

export async function mayReadHealthDetails(db: () => Database, request: Request, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (bearerMatches(request, env)) return true;
  if (!request.headers.get('cookie')) return false;
  try {
    return (await operatorBehindRequest(db(), request)) !== undefined;
  } catch {
    return false; // the session cannot be checked (database down): no details; a monitor uses the token
  }
}
