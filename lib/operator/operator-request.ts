import { getToken } from 'next-auth/jwt';
import { portalAuthSecret, sessionCookiesSecure } from '../accounts/auth-secret';
import type { Database } from '../db/client';
import { loadOperatorContext, type OperatorContext } from './operator-context';

function cookiesOf(request: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const name = part.slice(0, separator).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      // a cookie that is not ours, badly encoded: ignore it
    }
  }
  return cookies;
}

/**
 * The operator whose portal session cookie came with a plain Web request (a route served outside the pages, e.g. a
 * probe or a sandbox endpoint), re-read from the database like every console page: undefined for no session, a
 * merchant's, one ended by sign-out or a password change, or (in production) an operator's before they have set up
 * two-step sign-in, who may do nothing but that.
 */
export async function operatorBehindRequest(db: Database, request: Request): Promise<OperatorContext | undefined> {
  const token = await getToken({
    req: { cookies: cookiesOf(request), headers: {} } as unknown as Parameters<typeof getToken>[0]['req'],
    secret: portalAuthSecret(),
    secureCookie: sessionCookiesSecure(),
  });
  if (!token || typeof token.accountId !== 'number' || typeof token.sessionVersion !== 'number' || typeof token.sessionId !== 'string') return undefined;
  const operator = await loadOperatorContext(db, { accountId: token.accountId, sessionVersion: token.sessionVersion, sessionId: token.sessionId });
  return operator?.mustSetUpSecondFactor ? undefined : operator;
}
