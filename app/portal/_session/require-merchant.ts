import { getServerSession, type Session } from 'next-auth';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { loadMerchantContext, type MerchantContext } from '@/lib/portal/merchant-context';
import { authOptions } from './auth-options';
import { roleMay, type TeamAbility } from '@/lib/accounts/team-roles';

/**
 * The request's session and, when it is a current merchant session, its merchant, read once per request: the layout,
 * the page and the request's i18n settings (the merchant's time zone, i18n/request.ts) share one database read.
 */
export const signedInMerchant = cache(async (): Promise<{ session: Session | null; merchant?: MerchantContext }> => {
  const session = await getServerSession(authOptions());
  if (!session) return { session };
  return { session, merchant: await loadMerchantContext(getDb(), { accountId: session.accountId, sessionVersion: session.sessionVersion, sessionId: session.sessionId }) };
});

/**
 * The merchant behind the request's session, re-read from the database on every page and action (an account that
 * is gone or a session from before a password change is sent to sign in again; an operator to the operator console),
 * for a page that needs `ability` of the member's role. Server actions check their ability themselves
 * (assertRoleMay), so that the form shows the refusal.
 */
export async function requireMerchant(ability?: TeamAbility): Promise<MerchantContext> {
  const { merchant } = await requireMerchantSession({ duringSecondFactorSetUp: false });
  // A page the member's role does not open says so (and whom to ask) instead of showing anything of it.
  if (ability && !roleMay(merchant.teamRole, ability)) redirect(`/portal/not-allowed?page=${ability}`);
  return merchant;
}

/**
 * requireMerchant, with the id of the session the request came in (the account page marks it, and keeps it). While
 * the team requires two-step sign-in of a member who has not set it up, only what `duringSecondFactorSetUp` allows
 * runs (the account page, its set-up, password and sessions): everything else sends to the account page.
 */
export async function requireMerchantSession(options: { duringSecondFactorSetUp: boolean }): Promise<{ merchant: MerchantContext; sessionId: string }> {
  const { session, merchant } = await signedInMerchant();
  if (!session) redirect('/portal/sign-in');
  if (!merchant) {
    // An operator has no portal: the console is theirs (it re-checks the account itself).
    if (session.role === 'operator') redirect('/operator');
    redirect('/portal/sign-in?error=SessionExpired');
  }
  if (merchant.mustSetUpSecondFactor && !options.duringSecondFactorSetUp) redirect('/portal/account?secondFactor=required');
  return { merchant, sessionId: session.sessionId };
}
