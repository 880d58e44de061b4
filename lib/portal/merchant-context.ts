import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, merchants } from '../db/schema';

/** Who is acting in the portal: built from the session on every page and action, re-read from the database. */
export interface MerchantContext {
  accountId: number;
  email: string;
  merchantId: number;
  appId: string;
  merchantName: string;
  orderPermission: boolean;
  /** The zone the merchant reads its back office in: times, calendar days of the filters and figures. */
  timeZone: string;
}

/** The audit actor of a portal action. */
export function portalActor(context: Pick<MerchantContext, 'email'>): string {
  return `account:${context.email}`;
}

/**
 * The merchant context of a session token, or undefined when the account is gone, is not a merchant account, or the
 * token predates a password change (its session version is older than the account's).
 */
export async function loadMerchantContext(db: Database, token: { accountId: number; sessionVersion: number }): Promise<MerchantContext | undefined> {
  const [row] = await db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      role: accounts.role,
      sessionVersion: accounts.sessionVersion,
      merchantId: merchants.id,
      appId: merchants.appId,
      merchantName: merchants.name,
      orderPermission: merchants.orderPermission,
      timeZone: merchants.timeZone,
    })
    .from(accounts)
    .innerJoin(merchants, eq(merchants.id, accounts.merchantId))
    .where(eq(accounts.id, token.accountId))
    .limit(1);
  if (!row || row.role !== 'merchant' || row.sessionVersion !== token.sessionVersion) return undefined;
  return {
    accountId: row.accountId,
    email: row.email,
    merchantId: row.merchantId,
    appId: row.appId,
    merchantName: row.merchantName,
    orderPermission: row.orderPermission,
    timeZone: row.timeZone,
  };
}
