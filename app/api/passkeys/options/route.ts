import { getServerSession } from 'next-auth';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { passkeyAssertionOptions } from '@/lib/accounts/passkey-assertion';
import { passkeyRegistrationOptions } from '@/lib/accounts/passkey-enrolment';
import { passkeyChallengeRule, takeAttempt } from '@/lib/accounts/sign-in-throttle';
import { getDb } from '@/lib/db/client';
import { loadOperatorContext } from '@/lib/operator/operator-context';
import { loadMerchantContext } from '@/lib/portal/merchant-context';
import { authOptions } from '@/app/portal/_session/auth-options';

const PURPOSES = ['register', 'step_up', 'sign_in', 'second_factor'] as const;
type Purpose = (typeof PURPOSES)[number];

const answer = (status: number, body: unknown) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

/** The signed-in account behind the request's session, merchant or operator, while its session is live. */
async function signedInAccount(): Promise<number | undefined> {
  const session = await getServerSession(authOptions());
  if (!session) return undefined;
  const token = { accountId: session.accountId, sessionVersion: session.sessionVersion, sessionId: session.sessionId };
  const context = session.role === 'operator' ? await loadOperatorContext(getDb(), token) : await loadMerchantContext(getDb(), token);
  return context?.accountId;
}

/**
 * The options of a passkey ceremony for the browser (navigator.credentials.create or .get) and the id of its
 * challenge: `register` and `step_up` for the signed-in account; `sign_in` and `second_factor` before anyone is, so
 * limited per client (each is a row until it expires). Same-origin posts only (server/same-origin-pages.ts).
 */
export async function POST(request: Request): Promise<Response> {
  const body: unknown = await request.json().catch(() => undefined);
  const purpose = (body as { purpose?: unknown } | undefined)?.purpose;
  if (!PURPOSES.includes(purpose as Purpose)) return answer(400, { error: `purpose: must be one of ${PURPOSES.join(', ')}` });
  const now = new Date();
  if (purpose === 'sign_in' || purpose === 'second_factor') {
    const verdict = await takeAttempt(getDb(), [passkeyChallengeRule(clientAddressFrom(request.headers.get('x-forwarded-for')))], now);
    if (!verdict.allowed) return answer(429, { error: 'too many passkey challenges from this network: try again later' });
    return answer(200, await passkeyAssertionOptions(getDb(), { purpose, now }));
  }
  const accountId = await signedInAccount();
  if (accountId === undefined) return answer(401, { error: 'sign in first' });
  if (purpose === 'register') return answer(200, await passkeyRegistrationOptions(getDb(), { accountId, now }));
  return answer(200, await passkeyAssertionOptions(getDb(), { purpose: 'step_up', accountId, now }));
}
