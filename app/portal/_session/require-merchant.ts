import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { loadMerchantContext, type MerchantContext } from '@/lib/portal/merchant-context';
import { authOptions } from './auth-options';

/**
 * The merchant behind the request's session, re-read from the database on every page and action (an account that
 * is gone or a session from before a password change is sent to sign in again; an operator to the operator console).
 */
export async function requireMerchant(): Promise<MerchantContext> {
  const session = await getServerSession(authOptions());
  if (!session) redirect('/portal/sign-in');
  const context = await loadMerchantContext(getDb(), { accountId: session.accountId, sessionVersion: session.sessionVersion });
  if (!context) {
    // An operator has no portal: the console is theirs (it re-checks the account itself).
    if (session.role === 'operator') redirect('/operator');
    redirect('/portal/sign-in?error=SessionExpired');
  }
  return context;
}
