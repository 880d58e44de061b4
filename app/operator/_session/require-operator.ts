import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { authOptions } from '@/app/portal/_session/auth-options';
import { getDb } from '@/lib/db/client';
import { loadOperatorContext, type OperatorContext } from '@/lib/operator/operator-context';

/**
 * The operator behind the request's session, re-read from the database on every page and every server action: no
 * session, a merchant's session, an account that is gone or a session from before a password change is sent to the
 * sign-in page (in an action the redirect is the refusal: nothing runs). In production an operator without an
 * authenticator app is sent to their account page to set one up: only what `duringSecondFactorSetUp` allows runs (the
 * account page, its set-up and its sessions).
 */
export async function requireOperator(options: { duringSecondFactorSetUp: boolean } = { duringSecondFactorSetUp: false }): Promise<OperatorContext> {
  const session = await getServerSession(authOptions());
  if (!session) redirect('/portal/sign-in?next=/operator');
  const context = await loadOperatorContext(getDb(), { accountId: session.accountId, sessionVersion: session.sessionVersion, sessionId: session.sessionId });
  if (!context) redirect(`/portal/sign-in?error=${session.role === 'operator' ? 'SessionExpired' : 'NotOperator'}`);
  if (context.mustSetUpSecondFactor && !options.duringSecondFactorSetUp) redirect('/operator/account?secondFactor=required');
  return context;
}
