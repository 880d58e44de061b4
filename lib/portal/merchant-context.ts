import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountHasPasskey, accounts, accountTotpFactors, merchants } from '../db/schema';
import { touchLiveSession, type SessionToken } from '../accounts/account-sessions';
import type { TeamRole } from '../accounts/team-roles';

/** Who is acting in the portal: built from the session on every page and action, re-read from the database. */
export interface MerchantContext {
  accountId: number;
  email: string;
  merchantId: number;
  /** The account's role in the merchant's team: what it may open and do (lib/accounts/team-roles.ts). */
  teamRole: TeamRole;
  /** The team requires two-step sign-in and this account has no authenticator yet: only its account page opens. */
  mustSetUpSecondFactor: boolean;
  /** When an operator reset this account's lost authenticator app, until a new one is set up (every page says so). */
  secondFactorResetAt: Date | null;
  appId: string;
  merchantName: string;
  orderPermission: boolean;
  /** The zone the merchant reads its back office in: times, calendar days of the filters and figures. */
  timeZone: string;
  /** The session the request came in (a page's or action's context), whose second-factor answers open the step-up. */
  sessionId?: string;
}

/** The audit actor of a portal action. */
export function portalActor(context: Pick<MerchantContext, 'email'>): string {
  return `account:${context.email}`;
}

/** The merchant an account acts for, or undefined when the account is gone or is not a merchant account. */
export async function merchantContextOf(db: Database, accountId: number): Promise<MerchantContext | undefined> {
  const [row] = await db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      role: accounts.role,
      secondFactorResetAt: accounts.secondFactorResetAt,
      teamRole: accounts.teamRole,
      merchantId: merchants.id,
      appId: merchants.appId,
      merchantName: merchants.name,
      orderPermission: merchants.orderPermission,
      timeZone: merchants.timeZone,
      teamRequiresSecondFactor: merchants.teamRequiresSecondFactor,
      factorConfirmedAt: accountTotpFactors.confirmedAt,
      hasPasskey: accountHasPasskey,
    })
    .from(accounts)
    .innerJoin(merchants, eq(merchants.id, accounts.merchantId))
    .leftJoin(accountTotpFactors, eq(accountTotpFactors.accountId, accounts.id))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!row || row.role !== 'merchant' || !row.teamRole) return undefined;
  return {
    accountId: row.accountId,
    email: row.email,
    merchantId: row.merchantId,
    teamRole: row.teamRole,
    mustSetUpSecondFactor: row.teamRequiresSecondFactor && !row.factorConfirmedAt && !row.hasPasskey,
    secondFactorResetAt: row.secondFactorResetAt,
    appId: row.appId,
    merchantName: row.merchantName,
    orderPermission: row.orderPermission,
    timeZone: row.timeZone,
  };
}

/**
 * The merchant context of a session token, or undefined when its session is not live (ended by its owner or by
 * sign-out, unused past the idle limit, from before a password change) or its account is not a merchant account.
 */
export async function loadMerchantContext(db: Database, token: SessionToken, now = new Date()): Promise<MerchantContext | undefined> {
  if (!(await touchLiveSession(db, token, now))) return undefined;
  const context = await merchantContextOf(db, token.accountId);
  return context && { ...context, sessionId: token.sessionId };
}
