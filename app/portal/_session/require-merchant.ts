import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { loadMerchantContext, type MerchantContext } from '@/lib/portal/merchant-context';
import { authOptions } from './auth-options';

/**
 * The merchant behind the request's session, re-read from the database on every page and action (an account that
 * is gone, an operator account or a session from before a password change is sent to sign in again).
 */
export async function requireMerchant(): Promise<MerchantContext> {
  const session = await getServerSession(authOptions());
  if (!session) redirect('/portal/sign-in');
  const context = await loadMerchantContext(getDb(), { accountId: session.accountId, sessionVersion: session.sessionVersion });
  if (!context) redirect(`/portal/sign-in?error=${session.role === 'operator' ? 'NotMerchant' : 'SessionExpired'}`);
  return context;
}
